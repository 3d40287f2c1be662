// SPDX-License-Identifier: GPL-2.0
/*
 * nfs42_ops - the file operations NFSv4.2 adds, on files of a mount,
 * each checked against what was written:
 *
 *   nfs42_ops sparse FILE      make FILE a 4 MiB file with data in two
 *                              64 KiB extents and holes around them
 *   nfs42_ops check-sparse FILE
 *                              read FILE back, then find its holes and
 *                              data with SEEK_HOLE and SEEK_DATA (SEEK)
 *   nfs42_ops copy SRC DST     copy SRC to DST with copy_file_range() (COPY)
 *                              and compare them
 *   nfs42_ops punch FILE       punch a hole into FILE and extend it with
 *                              fallocate() (DEALLOCATE, ALLOCATE), and
 *                              check what reads back
 *   nfs42_ops xattr-set FILE   give FILE 100 user extended attributes,
 *                              the last of 60000 bytes (SETXATTR)
 *   nfs42_ops xattr-check FILE they are all listed (LISTXATTRS) and read
 *                              back as set (GETXATTR)
 *   nfs42_ops xattr-remove FILE
 *                              remove them (REMOVEXATTR): none is listed
 *
 * Data is a pattern of the file offset with no zero byte, so a hole reads
 * as zeroes and nothing else does. Exit 0 when everything came back as
 * expected, 1 with the reason on stderr, 3 when the file system says it
 * does not support the operation (EOPNOTSUPP), 2 on bad usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#define KIB		1024L
#define MIB		(1024 * KIB)
#define SPARSE_SIZE	(4 * MIB)
#define EXTENT		(64 * KIB)
#define EXTENT2		(2 * MIB)
#define PUNCH_AT	(1 * MIB)
#define PUNCH_LEN	(512 * KIB)
#define GROW		(1 * MIB)
#define BUF_LEN		(1 * MIB)
#define XATTRS		100
#define XATTR_SMALL	64
#define XATTR_BIG	60000

#define EXIT_UNSUPPORTED	3

static const char *prog = "nfs42_ops";

static int fail(const char *what, const char *file)
{
	int err = errno;

	fprintf(stderr, "%s: %s %s: %s\n", prog, what, file, strerror(err));
	return err == EOPNOTSUPP ? EXIT_UNSUPPORTED : 1;
}

static int wrong(const char *file, const char *fmt, long a, long b)
{
	fprintf(stderr, "%s: %s: ", prog, file);
	fprintf(stderr, fmt, a, b);
	fputc('\n', stderr);
	return 1;
}

/* The byte at @off of a data extent: never zero. */
static unsigned char pattern(long off)
{
	unsigned long x = (unsigned long)off * 2654435761UL;

	return (unsigned char)((x >> 13) % 255 + 1);
}

static void fill(unsigned char *buf, long off, long len)
{
	long i;

	for (i = 0; i < len; i++)
		buf[i] = pattern(off + i);
}

/* Is the byte at @off data of the sparse file? */
static int sparse_data(long off)
{
	return off < EXTENT || (off >= EXTENT2 && off < EXTENT2 + EXTENT);
}

static int write_all(int fd, const unsigned char *buf, long len, long off)
{
	ssize_t n;

	while (len > 0) {
		n = pwrite(fd, buf, len, off);
		if (n < 0)
			return -1;
		if (!n) {
			errno = EIO;
			return -1;
		}
		buf += n;
		len -= n;
		off += n;
	}
	return 0;
}

static int make_sparse(const char *file)
{
	unsigned char buf[EXTENT];
	int fd, ret = 0;

	fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return fail("open", file);
	fill(buf, 0, EXTENT);
	if (write_all(fd, buf, EXTENT, 0))
		ret = fail("write", file);
	fill(buf, EXTENT2, EXTENT);
	if (!ret && write_all(fd, buf, EXTENT, EXTENT2))
		ret = fail("write", file);
	if (!ret && ftruncate(fd, SPARSE_SIZE))
		ret = fail("truncate", file);
	if (!ret && fsync(fd))
		ret = fail("fsync", file);
	if (close(fd) && !ret)
		ret = fail("close", file);
	return ret;
}

/*
 * Read @file from its start to its end in BUF_LEN reads and compare each
 * byte with @want(offset): the pattern where it says data, else zero.
 * Returns the bytes read through @size.
 */
static int read_compare(int fd, const char *file, int (*is_data)(long),
			long *size)
{
	static unsigned char buf[BUF_LEN];
	long off = 0, i;
	ssize_t n;

	for (;;) {
		n = pread(fd, buf, sizeof(buf), off);
		if (n < 0)
			return fail("read", file);
		if (!n)
			break;
		for (i = 0; i < n; i++) {
			unsigned char want = is_data(off + i) ?
					     pattern(off + i) : 0;

			if (buf[i] != want)
				return wrong(file, "byte at %ld is not %ld",
					     off + i, want);
		}
		off += n;
	}
	*size = off;
	return 0;
}

/* lseek(@whence) from @from must land at @want (-1: fail with ENXIO). */
static int seek_expect(int fd, const char *file, int whence, long from,
		       long want)
{
	off_t got = lseek(fd, from, whence);

	if (got < 0 && errno == ENXIO && want < 0)
		return 0;
	if (got < 0)
		return fail(whence == SEEK_HOLE ? "SEEK_HOLE" : "SEEK_DATA",
			    file);
	if (got != want)
		return wrong(file, whence == SEEK_HOLE ?
			     "SEEK_HOLE from %ld found %ld" :
			     "SEEK_DATA from %ld found %ld", from, got);
	return 0;
}

static int check_sparse(const char *file)
{
	long size;
	int fd, ret;

	fd = open(file, O_RDONLY);
	if (fd < 0)
		return fail("open", file);
	ret = read_compare(fd, file, sparse_data, &size);
	if (!ret && size != SPARSE_SIZE)
		ret = wrong(file, "read %ld bytes, not %ld", size, SPARSE_SIZE);
	if (!ret)
		ret = seek_expect(fd, file, SEEK_HOLE, 0, EXTENT);
	if (!ret)
		ret = seek_expect(fd, file, SEEK_DATA, EXTENT, EXTENT2);
	if (!ret)
		ret = seek_expect(fd, file, SEEK_HOLE, EXTENT2,
				  EXTENT2 + EXTENT);
	if (!ret)
		ret = seek_expect(fd, file, SEEK_DATA, EXTENT2 + EXTENT, -1);
	close(fd);
	return ret;
}

/* Compare two open files byte for byte, to the end of both. */
static int same_files(int a, int b, const char *name)
{
	static unsigned char ba[BUF_LEN], bb[BUF_LEN];
	long off = 0;
	ssize_t na, nb;

	for (;;) {
		na = pread(a, ba, sizeof(ba), off);
		nb = pread(b, bb, sizeof(bb), off);
		if (na < 0 || nb < 0)
			return fail("read", name);
		if (na != nb)
			return wrong(name, "reads %ld bytes at %ld differently",
				     na > nb ? na : nb, off);
		if (!na)
			return 0;
		if (memcmp(ba, bb, na))
			return wrong(name, "differs in %ld bytes at %ld", na,
				     off);
		off += na;
	}
}

static int copy_range(const char *src, const char *dst)
{
	int in, out, ret = 0;
	struct stat st;
	loff_t left;
	ssize_t n;

	in = open(src, O_RDONLY);
	if (in < 0)
		return fail("open", src);
	out = open(dst, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (out < 0) {
		ret = fail("open", dst);
		goto out_in;
	}
	if (fstat(in, &st)) {
		ret = fail("stat", src);
		goto out;
	}
	for (left = st.st_size; left > 0; left -= n) {
		n = copy_file_range(in, NULL, out, NULL, left, 0);
		if (n < 0) {
			ret = fail("copy_file_range to", dst);
			goto out;
		}
		if (!n) {
			ret = wrong(dst, "copy stopped with %ld of %ld bytes left",
				    left, st.st_size);
			goto out;
		}
	}
	if (fsync(out))
		ret = fail("fsync", dst);
	if (!ret)
		ret = same_files(in, out, dst);
out:
	close(out);
out_in:
	close(in);
	return ret;
}

/* After punch(): a hole at PUNCH_AT, zeroes past the old end. */
static long punch_end;

static int punched_data(long off)
{
	return off < punch_end && (off < PUNCH_AT || off >= PUNCH_AT + PUNCH_LEN);
}

/*
 * @file: at least PUNCH_AT + PUNCH_LEN bytes; it is rewritten with the
 * pattern first.
 */
static int punch(const char *file)
{
	static unsigned char buf[BUF_LEN];
	long size, off;
	struct stat st;
	int fd, ret = 0;

	fd = open(file, O_RDWR);
	if (fd < 0)
		return fail("open", file);
	if (fstat(fd, &st)) {
		ret = fail("stat", file);
		goto out;
	}
	if (st.st_size < PUNCH_AT + PUNCH_LEN) {
		ret = wrong(file, "is %ld bytes, less than %ld", st.st_size,
			    PUNCH_AT + PUNCH_LEN);
		goto out;
	}
	for (off = 0; off < st.st_size && !ret; off += BUF_LEN) {
		long len = st.st_size - off < BUF_LEN ? st.st_size - off :
							  BUF_LEN;

		fill(buf, off, len);
		if (write_all(fd, buf, len, off))
			ret = fail("write", file);
	}
	if (!ret && fsync(fd))
		ret = fail("fsync", file);
	if (!ret && fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
			      PUNCH_AT, PUNCH_LEN))
		ret = fail("punching a hole in", file);
	if (!ret && fallocate(fd, 0, st.st_size, GROW))
		ret = fail("allocating past the end of", file);
	if (ret)
		goto out;
	punch_end = st.st_size;
	ret = read_compare(fd, file, punched_data, &size);
	if (!ret && size != st.st_size + GROW)
		ret = wrong(file, "is %ld bytes after fallocate, not %ld", size,
			    st.st_size + GROW);
out:
	close(fd);
	return ret;
}

static void xattr_name(char *name, size_t len, int i)
{
	snprintf(name, len, "user.xr-%03d", i);
}

/* Value of attribute @i: the big one is the last. */
static long xattr_len(int i)
{
	return i == XATTRS - 1 ? XATTR_BIG : XATTR_SMALL;
}

static int xattr_set_all(const char *file, unsigned char *val)
{
	char name[32];
	int i;

	for (i = 0; i < XATTRS; i++) {
		xattr_name(name, sizeof(name), i);
		fill(val, i * 7919L, xattr_len(i));
		if (setxattr(file, name, val, xattr_len(i), XATTR_CREATE))
			return fail("setxattr on", file);
	}
	return 0;
}

/* Count our names in the list of @file's attributes. */
static int xattr_count(const char *file, long *count)
{
	char *list, *p;
	ssize_t len;

	len = listxattr(file, NULL, 0);
	if (len < 0)
		return fail("listxattr of", file);
	list = malloc(len + 1);
	if (!list)
		return fail("malloc for", file);
	len = listxattr(file, list, len);
	if (len < 0) {
		free(list);
		return fail("listxattr of", file);
	}
	*count = 0;
	for (p = list; p < list + len; p += strlen(p) + 1)
		if (!strncmp(p, "user.xr-", 8))
			(*count)++;
	free(list);
	return 0;
}

static int xattr_get_all(const char *file, unsigned char *want,
			 unsigned char *got)
{
	char name[32];
	ssize_t n;
	int i;

	for (i = 0; i < XATTRS; i++) {
		xattr_name(name, sizeof(name), i);
		fill(want, i * 7919L, xattr_len(i));
		n = getxattr(file, name, got, XATTR_BIG);
		if (n < 0)
			return fail("getxattr of", file);
		if (n != xattr_len(i) || memcmp(got, want, n))
			return wrong(file, "attribute %ld reads back as %ld bytes",
				     i, n);
	}
	return 0;
}

static int xattr_remove_all(const char *file)
{
	char name[32];
	int i;

	for (i = 0; i < XATTRS; i++) {
		xattr_name(name, sizeof(name), i);
		if (removexattr(file, name))
			return fail("removexattr of", file);
	}
	return 0;
}

/* Every attribute listed, and each reads back as it was set. */
static int xattr_check(const char *file)
{
	static unsigned char want[XATTR_BIG], got[XATTR_BIG];
	long count = 0;
	int ret;

	ret = xattr_count(file, &count);
	if (!ret && count != XATTRS)
		ret = wrong(file, "lists %ld of its %ld attributes", count,
			    XATTRS);
	if (!ret)
		ret = xattr_get_all(file, want, got);
	return ret;
}

static int xattr_set(const char *file)
{
	static unsigned char val[XATTR_BIG];

	return xattr_set_all(file, val);
}

static int xattr_remove(const char *file)
{
	long count = 0;
	int ret;

	ret = xattr_remove_all(file);
	if (!ret)
		ret = xattr_count(file, &count);
	if (!ret && count)
		ret = wrong(file, "lists %ld attributes of %ld removed", count,
			    XATTRS);
	return ret;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "sparse"))
		return make_sparse(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "check-sparse"))
		return check_sparse(argv[2]);
	if (argc == 4 && !strcmp(argv[1], "copy"))
		return copy_range(argv[2], argv[3]);
	if (argc == 3 && !strcmp(argv[1], "punch"))
		return punch(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "xattr-set"))
		return xattr_set(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "xattr-check"))
		return xattr_check(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "xattr-remove"))
		return xattr_remove(argv[2]);
	fprintf(stderr,
		"usage: %s sparse|check-sparse|punch|xattr-set|xattr-check|xattr-remove FILE\n"
		"       %s copy SRC DST\n", prog, prog);
	return 2;
}
