// SPDX-License-Identifier: GPL-2.0
/*
 * direct_unaligned FILE MIB SHIFT: write MIB MiB to FILE (created or
 * truncated) with O_DIRECT in one call, from a buffer that starts SHIFT
 * bytes into a page, then read it back with O_DIRECT in one call into a
 * buffer SHIFT bytes into a page too, and compare. Over NFS each 1 MiB
 * call's pages then start inside a page, which costs a memory region
 * more than a page-aligned call. Exit 0 when the data came back as
 * written, 1 with the reason on stderr.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static unsigned char *map_bytes(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

static int fail(const char *what)
{
	fprintf(stderr, "direct_unaligned: %s: %s\n", what, strerror(errno));
	return 1;
}

/* 0 when one call moved all @len bytes, else 1 with the reason. */
static int check_moved(const char *what, ssize_t done, size_t len)
{
	if (done < 0)
		return fail(what);
	if ((size_t)done == len)
		return 0;
	fprintf(stderr, "direct_unaligned: %s moved %zd of %zu bytes\n",
		what, done, len);
	return 1;
}

int main(int argc, char **argv)
{
	unsigned char *wbuf, *rbuf, *w, *r;
	unsigned long mib, shift;
	size_t len, i, seed;
	ssize_t done;
	int fd;

	if (argc != 4) {
		fprintf(stderr, "usage: direct_unaligned FILE MIB SHIFT\n");
		return 2;
	}
	mib = strtoul(argv[2], NULL, 0);
	shift = strtoul(argv[3], NULL, 0);
	if (!mib || mib > 1024 || !shift || shift >= 4096) {
		fprintf(stderr, "direct_unaligned: MIB 1..1024, SHIFT 1..4095\n");
		return 2;
	}
	len = mib << 20;
	wbuf = map_bytes(len + 8192);
	rbuf = map_bytes(len + 8192);
	if (!wbuf || !rbuf)
		return fail("mmap");
	w = wbuf + shift;
	r = rbuf + shift;
	seed = (size_t)getpid() * 2654435761u + shift;
	for (i = 0; i < len; i++) {
		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		w[i] = seed >> 56;
	}

	fd = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC | O_DIRECT, 0644);
	if (fd < 0)
		return fail("open for writing");
	done = pwrite(fd, w, len, 0);
	if (check_moved("pwrite", done, len))
		return 1;
	if (close(fd))
		return fail("close after writing");

	fd = open(argv[1], O_RDONLY | O_DIRECT);
	if (fd < 0)
		return fail("open for reading");
	done = pread(fd, r, len, 0);
	if (check_moved("pread", done, len))
		return 1;
	close(fd);
	for (i = 0; i < len; i++) {
		if (r[i] != w[i]) {
			fprintf(stderr,
				"direct_unaligned: byte %zu is %#x, wrote %#x\n",
				i, r[i], w[i]);
			return 1;
		}
	}
	return 0;
}
