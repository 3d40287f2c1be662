/* SPDX-License-Identifier: GPL-2.0 */
/*
 * xprt.h - the client role: the rpc_xprt class NFS mounts through
 * (xprt_transport.c), its connections (xprt_conn.c), marshaling calls
 * and handling replies (xprt_marshal.c) and the NFSv4.1 backchannel
 * (xprt_backchannel.c). Requests and their memory regions: xprt_req.h.
 */
#ifndef _XRPCRDMA_XPRT_H
#define _XRPCRDMA_XPRT_H

#include <linux/completion.h>
#include <linux/kref.h>
#include <linux/mutex.h>
#include <linux/rwsem.h>
#include <linux/sizes.h>
#include <linux/spinlock.h>
#include <linux/sunrpc/xprt.h>
#include <linux/workqueue.h>

#include "recvq.h"
#include "sendq.h"
#include "snap.h"
#include "stats.h"

struct xr_xprt;
struct xr_xconn;

/* Largest RPC payload (rsize, wsize), as the in-tree client's. */
#define XR_XPRT_MAX_PAYLOAD	SZ_1M

/* Most memory regions one request registers (call and reply chunks). */
#define XR_REQ_MAX_MRS		8
/* Most segments in the Write chunk or Reply chunk a request offers. */
#define XR_REQ_MAX_WSEGS	4
/* Segments the Read list of one call may carry. */
#define XR_CALL_MAX_READ_SEGS	8

/* Bits of xr_xconn.xc_flags */
enum {
	XR_XC_ESTABLISHED,	/* the connection manager said so */
	XR_XC_PUBLISHED,	/* the transport uses it (xr_xprt.rx_conn) */
	XR_XC_DOWN,		/* disconnected, or being closed */
	XR_XC_SHUTDOWN,		/* xr_xconn_shutdown() takes the queue pair */
	XR_XC_DRAINED,		/* the queue pair is flushed */
};

/**
 * struct xr_xconn - one connection of a client transport
 * @xc_ep: the RDMA endpoint
 * @xc_sq: send contexts and send queue
 * @xc_rq: receive contexts
 * @xc_xprt: the transport it belongs to
 * @xc_ref: held by the transport while published, and by each request
 *	holding memory regions of this connection
 * @xc_flags: XR_XC_* bits
 * @xc_up: completed when the connection is established or failed
 * @xc_drained: completed once the queue pair is flushed
 * @xc_reply_work: handles received replies
 * @xc_free_work: frees the connection after the last reference
 * @xc_mr_lock: protects @xc_mr_free and @xc_mr_all
 * @xc_mr_free: memory regions ready for use
 * @xc_mr_all: every memory region allocated
 * @xc_mr_count: entries in @xc_mr_all; written only while the pool is
 *	set up and by @xc_mr_work
 * @xc_mr_max: most memory regions the connection allocates; those past
 *	the first call's worth are allocated when a call needs them
 * @xc_mr_retry: no growth is asked for before this time (jiffies): set
 *	by @xc_mr_work when it could get none
 * @xc_mr_work: allocates more memory regions (xprt_frwr.c)
 * @xc_post_rwsem: held for reading around posts outside the transport's
 *	write lock (invalidations, Receives); taken for writing once by
 *	the close, so none is posted after the queue pair is drained
 * @xc_max_pages: pages one memory region maps
 * @xc_inline_send: largest call sent inline (the server's receive size)
 * @xc_inline_recv: largest reply expected inline: our buffers, once
 *	connected no more than the server sends inline
 * @xc_recvs: Receives kept posted: one for each call that may be in
 *	flight and each backchannel call the server may send
 * @xc_unsettled: received messages whose call's slot was not released
 *	yet (or, for anything but a reply, that were not handed back)
 * @xc_local: our address, kept when the connection is established (the
 *	connection manager ID goes before the connection's last event)
 */
struct xr_xconn {
	struct xr_ep		xc_ep;
	struct xr_sendq		xc_sq;
	struct xr_recvq		xc_rq;
	struct xr_xprt		*xc_xprt;
	struct kref		xc_ref;
	unsigned long		xc_flags;
	struct completion	xc_up;
	struct completion	xc_drained;
	struct work_struct	xc_reply_work;
	struct work_struct	xc_free_work;
	spinlock_t		xc_mr_lock;	/* xc_mr_free, xc_mr_all */
	struct list_head	xc_mr_free;
	struct list_head	xc_mr_all;
	u32			xc_mr_count;
	u32			xc_mr_max;
	unsigned long		xc_mr_retry;
	struct work_struct	xc_mr_work;
	struct rw_semaphore	xc_post_rwsem;
	u32			xc_max_pages;
	u32			xc_inline_send;
	u32			xc_inline_recv;
	u32			xc_recvs;
	atomic_t		xc_unsettled;
	struct sockaddr_storage	xc_local;
};

/**
 * struct xr_xprt - a client transport
 * @rx_xprt: the SUNRPC transport
 * @rx_mutex: protects @rx_conn changes
 * @rx_conn: the current connection, or NULL
 * @rx_connect_work: connects (or reconnects after a back-off)
 * @rx_tried: a connection was attempted before: back off from now on
 * @rx_max_reqs: credits asked for; never more calls in flight
 * @rx_hdr: transport header being encoded (send_request holds the
 *	transport's write lock); its lists are the three below
 * @rx_hdr_writes: Write list of @rx_hdr
 * @rx_hdr_reads: Read list of @rx_hdr
 * @rx_hdr_segs: Write and Reply chunk segments of @rx_hdr
 * @rx_bc_users: backchannel users (NFSv4.1 sessions) of the transport;
 *	under rx_xprt.bc_pa_lock, as are the two below
 * @rx_bc_want: backchannel requests to keep: XR_BC_MAX_REQUESTS while
 *	there are users, else 0
 * @rx_bc_allocated: backchannel requests allocated, free (on
 *	rx_xprt.bc_pa_list) or in use
 * @rx_bc_inline: the largest message of the last connection either way
 *	(our Receive buffers, what we send inline); 0 before the first
 * @rx_stats: one per &enum xr_xprt_stat
 * @rx_id: the transport's number in the registry (0: not registered)
 * @rx_timed_out: an RPC timeout forced the coming disconnect
 * @rx_config: the tunables it was created with
 */
struct xr_xprt {
	struct rpc_xprt		rx_xprt;
	struct mutex		rx_mutex;	/* protects rx_conn */
	struct xr_xconn		*rx_conn;
	struct delayed_work	rx_connect_work;
	bool			rx_tried;
	u32			rx_max_reqs;
	struct xr_hdr		rx_hdr;
	struct xr_write_chunk	rx_hdr_writes[1];
	struct xr_read_seg	rx_hdr_reads[XR_CALL_MAX_READ_SEGS];
	struct xr_seg		rx_hdr_segs[XR_REQ_MAX_WSEGS];
	u32			rx_bc_users;
	u32			rx_bc_want;
	u32			rx_bc_allocated;
	u32			rx_bc_inline;
	atomic64_t		rx_stats[XR_XPRT_STAT_COUNT];
	u32			rx_id;
	atomic_t		rx_timed_out;
	struct xr_config	rx_config;
};

static inline void xr_xprt_count(struct xr_xprt *rx, enum xr_xprt_stat stat,
				 u64 n)
{
	atomic64_add(n, &rx->rx_stats[stat]);
}

/*
 * The client transport's workqueue (xprt_transport.c): connect workers,
 * and the reply work and the freeing of connections (xprt_conn.c).
 */
extern struct workqueue_struct *xr_xprt_wq;

int xr_xprt_init(void);
void xr_xprt_exit(void);
void xr_xprt_fill_snap(struct xr_xprt *rx, struct xr_xprt_snap *snap);

/* xprt_conn.c */
int xr_xconn_open(struct xr_xprt *rx, struct xr_xconn **conn);
void xr_xconn_shutdown(struct xr_xconn *c);
void xr_xconn_put(struct xr_xconn *c);
void xr_xconn_fail(struct xr_xconn *c);
void xr_xconn_recv_replace(struct xr_xconn *c, struct xr_recvctx *rc,
			   bool settle);

/* xprt_marshal.c */

/* How a call's RPC message travels. */
enum xr_call_kind {
	XR_CALL_INLINE,		/* inline only */
	XR_CALL_READ_LIST,	/* its page data in a Read list */
	XR_CALL_NOMSG,		/* the whole message in a Read chunk at 0 */
};

int xr_marshal_send(struct xr_xprt *rx, struct xr_xconn *c,
		    struct rpc_rqst *rqst);
bool xr_reply_decode(struct xr_xconn *c, struct xr_recvctx *rc);
bool xr_reply_handle(struct xr_xconn *c, struct xr_recvctx *rc);
bool xr_reply_try_direct(struct xr_xconn *c, struct xr_recvctx *rc);

/* xprt_backchannel.c */
size_t xr_xprt_bc_maxpayload(struct rpc_xprt *xprt);
unsigned int xr_xprt_bc_num_slots(struct rpc_xprt *xprt);
int xr_xprt_bc_setup(struct rpc_xprt *xprt, unsigned int reqs);
void xr_xprt_bc_destroy(struct rpc_xprt *xprt, unsigned int reqs);
void xr_xprt_bc_free_rqst(struct rpc_rqst *rqst);
bool xr_xprt_bc_is_call(const struct xr_recvctx *rc);
void xr_xprt_bc_receive_call(struct xr_xconn *c, struct xr_recvctx *rc);
int xr_xprt_bc_send_reply(struct xr_xprt *rx, struct xr_xconn *c,
			  struct rpc_rqst *rqst);

#endif /* _XRPCRDMA_XPRT_H */
