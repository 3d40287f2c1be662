/* SPDX-License-Identifier: GPL-2.0 */
/*
 * proto.h - the RPC-over-RDMA version 1 transport header codec (RFC 8166)
 * and the RDMA-CM private data message (RFC 8797). Pure functions over
 * caller-owned buffers: no verbs, no SUNRPC state, no allocation, no
 * globals. This header also builds in userspace, where tests/proto/kshim.h
 * stands in for the kernel headers.
 */
#ifndef XR_PROTO_H
#define XR_PROTO_H

#ifdef __KERNEL__
#include <linux/bits.h>
#include <linux/errno.h>
#include <linux/limits.h>
#include <linux/string.h>
#include <linux/types.h>
#include <asm/byteorder.h>
#else
#include "kshim.h"
#endif

/* Fixed header words (RFC 8166, Section 4.2) */
#define XR_VERSION		1

/* rdma_proc values (RFC 8166, Section 4.2.4) */
enum xr_proc {
	XR_RDMA_MSG	= 0,	/* RPC message follows the header inline */
	XR_RDMA_NOMSG	= 1,	/* RPC message is conveyed in a chunk */
	XR_RDMA_MSGP	= 2,	/* no longer supported (Section 4.6.1) */
	XR_RDMA_DONE	= 3,	/* no longer supported (Section 4.6.2) */
	XR_RDMA_ERROR	= 4,	/* transport-level error reply */
};

/* rdma_err values (RFC 8166, Section 4.5) */
enum xr_err {
	XR_ERR_VERS	= 1,
	XR_ERR_CHUNK	= 2,
};

/* Wire sizes, in bytes. Every item is a whole number of XDR words. */
#define XR_XDR_UNIT		4
#define XR_HDR_FIXED_SIZE	16	/* xid, vers, credits, proc */
#define XR_HDR_MIN_SIZE		28	/* fixed part and three empty lists */
#define XR_HDR_ERR_CHUNK_SIZE	20	/* fixed part and rdma_err */
#define XR_HDR_ERR_VERS_SIZE	28	/* ... and vers_low, vers_high */
#define XR_SEG_SIZE		16	/* handle, length, offset (64 bits) */

/*
 * Compile-time maxima: the largest lists a decoder may be asked to accept
 * (&struct xr_limits). The storage a decoded header uses is the caller's,
 * sized by the limits it really applies (&struct xr_hdr).
 */
#define XR_MAX_SEGS		64	/* read segments; write+reply segments */
#define XR_MAX_WRITE_CHUNKS	8

/**
 * struct xr_seg - one RDMA segment (RFC 8166, Section 3.4.3)
 * @sg_handle: R_key or STag of the registered memory
 * @sg_length: length of the memory region, in bytes
 * @sg_offset: offset or address of the memory region
 */
struct xr_seg {
	u32 sg_handle;
	u32 sg_length;
	u64 sg_offset;
};

/**
 * struct xr_read_seg - one entry of a Read list (RFC 8166, Section 3.4.5)
 * @rs_position: XDR position in the unreduced RPC message where the
 *	chunk this segment belongs to is inserted
 * @rs_seg: the segment
 */
struct xr_read_seg {
	u32 rs_position;
	struct xr_seg rs_seg;
};

/**
 * struct xr_write_chunk - a Write chunk or the Reply chunk
 * @wc_first: index of the chunk's first segment in &xr_hdr.hd_segs
 * @wc_nsegs: number of segments in the chunk
 */
struct xr_write_chunk {
	u32 wc_first;
	u32 wc_nsegs;
};

/**
 * struct xr_read_chunk - one Read chunk, as found by xr_read_chunk_get()
 * @rc_position: XDR position shared by the chunk's segments
 * @rc_first: index of the chunk's first segment in &xr_hdr.hd_reads
 * @rc_nsegs: number of segments in the chunk
 * @rc_length: sum of the segment lengths, in bytes
 */
struct xr_read_chunk {
	u32 rc_position;
	u32 rc_first;
	u32 rc_nsegs;
	u32 rc_length;
};

/* Values for &xr_hdr.hd_flags */
#define XR_HDR_XID		BIT(0)	/* hd_xid .. hd_proc were read */
#define XR_HDR_REPLY_CHUNK	BIT(1)	/* the Reply chunk is present */

/**
 * struct xr_hdr - a transport header, as decoded or to be encoded
 * @hd_xid: rdma_xid, kept in wire order
 * @hd_vers: rdma_vers
 * @hd_credits: rdma_credit
 * @hd_proc: rdma_proc, one of &enum xr_proc when valid
 * @hd_flags: %XR_HDR_XID, %XR_HDR_REPLY_CHUNK
 * @hd_hdr_len: bytes of transport header; for RDMA_MSG the RPC message
 *	begins at this offset
 * @hd_err: RDMA_ERROR only: rdma_err, one of &enum xr_err
 * @hd_vers_low: RDMA_ERROR/ERR_VERS only: lowest version the peer supports
 * @hd_vers_high: RDMA_ERROR/ERR_VERS only: highest version the peer supports
 * @hd_nreads: number of entries in @hd_reads
 * @hd_nwrites: number of entries in @hd_writes
 * @hd_nsegs: number of entries in @hd_segs used by the decoder
 * @hd_reply: the Reply chunk; valid when %XR_HDR_REPLY_CHUNK is set
 * @hd_writes: the Write list, in wire order; @hd_max_writes entries
 * @hd_reads: the Read list, in wire order; @hd_max_reads entries
 * @hd_segs: segments of the Write chunks and of the Reply chunk;
 *	@hd_max_segs entries
 * @hd_max_writes: room at @hd_writes
 * @hd_max_reads: room at @hd_reads
 * @hd_max_segs: room at @hd_segs
 *
 * The lists live in storage the caller attaches with xr_hdr_attach(),
 * sized by the limits it decodes with (or by what it encodes): a header
 * that needs more than is attached is never written past its arrays.
 * &struct xr_hdr_buf is storage for the largest header.
 */
struct xr_hdr {
	__be32 hd_xid;
	u32 hd_vers;
	u32 hd_credits;
	u32 hd_proc;
	u32 hd_flags;
	u32 hd_hdr_len;
	u32 hd_err;
	u32 hd_vers_low;
	u32 hd_vers_high;
	u32 hd_nreads;
	u32 hd_nwrites;
	u32 hd_nsegs;
	struct xr_write_chunk hd_reply;
	struct xr_write_chunk *hd_writes;
	struct xr_read_seg *hd_reads;
	struct xr_seg *hd_segs;
	u32 hd_max_writes;
	u32 hd_max_reads;
	u32 hd_max_segs;
};

/**
 * xr_hdr_attach - give a header the storage for its lists
 * @hdr: the header
 * @writes: room for @max_writes Write chunks (may be NULL if 0)
 * @max_writes: entries at @writes
 * @reads: room for @max_reads Read segments (may be NULL if 0)
 * @max_reads: entries at @reads
 * @segs: room for @max_segs Write and Reply chunk segments (may be NULL
 *	if 0)
 * @max_segs: entries at @segs
 *
 * The counts of @hdr are reset; its other fields are left alone.
 */
static inline void xr_hdr_attach(struct xr_hdr *hdr,
				 struct xr_write_chunk *writes, u32 max_writes,
				 struct xr_read_seg *reads, u32 max_reads,
				 struct xr_seg *segs, u32 max_segs)
{
	hdr->hd_nreads = 0;
	hdr->hd_nwrites = 0;
	hdr->hd_nsegs = 0;
	hdr->hd_writes = writes;
	hdr->hd_max_writes = max_writes;
	hdr->hd_reads = reads;
	hdr->hd_max_reads = max_reads;
	hdr->hd_segs = segs;
	hdr->hd_max_segs = max_segs;
}

/**
 * struct xr_hdr_buf - a header with storage for the largest lists
 * @hb_hdr: the header; attach with xr_hdr_buf_init()
 * @hb_writes: its Write list
 * @hb_reads: its Read list
 * @hb_segs: its Write and Reply chunk segments
 *
 * About 2.7 KB: for encoders and tools, not for every receive buffer.
 */
struct xr_hdr_buf {
	struct xr_hdr hb_hdr;
	struct xr_write_chunk hb_writes[XR_MAX_WRITE_CHUNKS];
	struct xr_read_seg hb_reads[XR_MAX_SEGS];
	struct xr_seg hb_segs[XR_MAX_SEGS];
};

/**
 * xr_hdr_buf_init - zero a &struct xr_hdr_buf and attach its storage
 * @hb: the storage
 *
 * Return: the header, ready to be filled in or decoded into.
 */
static inline struct xr_hdr *xr_hdr_buf_init(struct xr_hdr_buf *hb)
{
	memset(hb, 0, sizeof(*hb));
	xr_hdr_attach(&hb->hb_hdr, hb->hb_writes, XR_MAX_WRITE_CHUNKS,
		      hb->hb_reads, XR_MAX_SEGS, hb->hb_segs, XR_MAX_SEGS);
	return &hb->hb_hdr;
}

/* Values for &xr_limits.lm_flags */
#define XR_LIM_REPLY		BIT(0)	/* decoding a reply, not a call */

/**
 * struct xr_limits - what the decoder accepts
 * @lm_max_read_segs: most segments in the Read list
 * @lm_max_write_chunks: most chunks in the Write list
 * @lm_max_chunk_segs: most segments in one Write chunk or the Reply chunk
 * @lm_max_segs: most segments in the whole header
 * @lm_max_chunk_len: most bytes one chunk may describe
 * @lm_flags: %XR_LIM_REPLY when the header received is a reply (the
 *	receiver is the requester); clear for a call
 *
 * The three segment counts are at most %XR_MAX_SEGS and the chunk count
 * at most %XR_MAX_WRITE_CHUNKS.
 */
struct xr_limits {
	u32 lm_max_read_segs;
	u32 lm_max_write_chunks;
	u32 lm_max_chunk_segs;
	u32 lm_max_segs;
	u32 lm_max_chunk_len;
	u32 lm_flags;
};

/* Is a wire buffer XDR word aligned? The codec takes no other. */
static inline bool xr_aligned(const void *buf)
{
	return !((unsigned long)buf & (XR_XDR_UNIT - 1));
}

/* proto_encode.c */
int xr_hdr_encode(void *buf, size_t len, const struct xr_hdr *hdr);
int xr_hdr_encode_error(void *buf, size_t len, __be32 xid, u32 credits,
			u32 err);
int xr_hdr_encode_msg(void *buf, size_t len, __be32 xid, u32 credits);
int xr_chunk_length(const struct xr_seg *segs, u32 nsegs, u32 *length);
int xr_chunk_fill(struct xr_seg *segs, u32 nsegs, u32 written);

/* proto.c: decoding, and the chunks of a decoded header */
int xr_hdr_decode(const void *buf, size_t len, const struct xr_limits *lim,
		  struct xr_hdr *hdr);
u32 xr_read_chunk_count(const struct xr_hdr *hdr);
bool xr_read_has_pos_zero(const struct xr_hdr *hdr);
bool xr_hdr_inv_rkey(const struct xr_hdr *hdr, u32 *rkey);
int xr_read_chunk_get(const struct xr_hdr *hdr, u32 index,
		      struct xr_read_chunk *found);

/*
 * RDMA-CM private data for RPC-over-RDMA version 1 (RFC 8797, Section 4):
 *
 *   bytes 0-3  Format Identifier, 0xf6ab0e18 in network byte order
 *   byte  4    Version, 1
 *   byte  5    flags: bit 0 (the least significant) = Send With
 *              Invalidate OK ("I"); the other seven bits are reserved
 *   byte  6    Send Size: (max inline send bytes / 1024) - 1
 *   byte  7    Receive Size: (max inline receive bytes / 1024) - 1
 */
#define XR_CM_PDATA_MAGIC	0xf6ab0e18
#define XR_CM_PDATA_VERSION	1
#define XR_CM_PDATA_SIZE	8
#define XR_CM_SWI_OK		BIT(0)	/* wire flag, also &xr_cm_pdata */
#define XR_CM_INLINE_UNIT	1024
#define XR_CM_INLINE_MIN	1024	/* also the default when absent */
#define XR_CM_INLINE_MAX	(256 * 1024)

/**
 * struct xr_cm_pdata - the content of RFC 8797 private data
 * @cp_send_size: largest inline message the sender will send, in bytes
 * @cp_recv_size: largest inline message the sender can receive, in bytes
 * @cp_flags: %XR_CM_SWI_OK
 */
struct xr_cm_pdata {
	u32 cp_send_size;
	u32 cp_recv_size;
	u32 cp_flags;
};

u32 xr_cm_size_carried(u32 size);
int xr_cm_pdata_encode(void *buf, size_t len, const struct xr_cm_pdata *pd);
int xr_cm_pdata_decode(const void *buf, size_t len, struct xr_cm_pdata *pd);

#endif /* XR_PROTO_H */
