/* SPDX-License-Identifier: GPL-2.0 */
/*
 * xrpcrdma.h - declarations shared between the files of xrpcrdma.ko,
 * grouped by the file that defines them. Struct fields carry a short
 * prefix naming their struct (xd_ for struct xr_device).
 */
#ifndef _XRPCRDMA_H
#define _XRPCRDMA_H

#include <linux/types.h>
#include <linux/atomic.h>
#include <linux/jump_label.h>
#include <linux/completion.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/rwsem.h>
#include <linux/netlink.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <linux/sunrpc/svc_xprt.h>
#include <linux/sunrpc/xprt.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_cm.h>
#include <rdma/rw.h>

#include "compat.h"
#include "proto.h"
#include "snap.h"

#if XR_HAVE_GENL_SPLIT_OPS
#include "nl-gen.h"
#else
#include "nl-gen-legacy.h"
extern struct genl_family xrpcrdma_nl_family;
#endif

#define XR_MODNAME	"xrpcrdma"

/* stats.c */

/**
 * enum xr_obj - kinds of objects whose live instances the module counts
 * @XR_OBJ_DEVICE: struct xr_device, one per RDMA device seen
 * @XR_OBJ_SVC_XPRT: struct xr_svc_xprt, a server listener or connection
 * @XR_OBJ_SENDCTX: struct xr_sendctx, with its DMA-mapped buffer
 * @XR_OBJ_RECVCTX: struct xr_recvctx, with its DMA-mapped buffer
 * @XR_OBJ_XPRT: struct xr_xprt, a client transport
 * @XR_OBJ_XCONN: struct xr_xconn, a connection of a client transport
 * @XR_OBJ_MR: struct xr_mr, a memory region of a client connection
 * @XR_OBJ_REQ: struct xr_req, the buffers of one client RPC
 * @XR_OBJ_BC_RQST: struct xr_xbc_rqst, a client's backchannel request
 *	with its two page buffers
 * @XR_OBJ_COUNT: number of kinds
 *
 * Every allocation of a tracked kind is paired with xr_obj_get() and its
 * release with xr_obj_put(). On unload all counts must be zero.
 */
enum xr_obj {
	XR_OBJ_DEVICE,
	XR_OBJ_SVC_XPRT,
	XR_OBJ_SENDCTX,
	XR_OBJ_RECVCTX,
	XR_OBJ_XPRT,
	XR_OBJ_XCONN,
	XR_OBJ_MR,
	XR_OBJ_REQ,
	XR_OBJ_BC_RQST,
	XR_OBJ_COUNT
};

void xr_obj_get(enum xr_obj kind);
void xr_obj_put(enum xr_obj kind);
s64 xr_obj_live(enum xr_obj kind);
const char *xr_obj_name(enum xr_obj kind);
bool xr_obj_check_all_released(void);

/**
 * enum xr_svc_stat - what the server counts for each connection
 * @XR_SVC_STAT_CALLS_RECEIVED: messages taken from the receive queue
 * @XR_SVC_STAT_REPLIES_INLINE: replies sent entirely inline
 * @XR_SVC_STAT_REPLIES_WRITE_CHUNK: replies whose payload went in Write chunks
 * @XR_SVC_STAT_REPLIES_REPLY_CHUNK: replies sent through a Reply chunk
 * @XR_SVC_STAT_RDMA_READ_BYTES: bytes pulled from the client by RDMA Read
 * @XR_SVC_STAT_RDMA_WRITE_BYTES: bytes pushed to the client by RDMA Write
 * @XR_SVC_STAT_SQ_STARVES: times a sender waited for a send queue slot
 * @XR_SVC_STAT_SEND_ERRORS: Send completions with an error (not flushes)
 * @XR_SVC_STAT_SENDS_SIGNALED: Sends that asked for a completion
 * @XR_SVC_STAT_REMOTE_INVS: replies sent With Invalidate of the client's region
 * @XR_SVC_STAT_SENDCTX_WAITS: waits for a send context at the sendctx-max cap
 * @XR_SVC_STAT_RECV_ERRORS: Receive completions with an error (not flushes)
 * @XR_SVC_STAT_BAD_HEADERS: calls answered with RDMA_ERROR or dropped
 *	because of their transport header
 * @XR_SVC_STAT_RDMA_ERRORS_SENT: RDMA_ERROR replies posted
 * @XR_SVC_STAT_BC_CALLS_SENT: backchannel (NFSv4.1 callback) calls posted
 * @XR_SVC_STAT_BC_REPLIES_RECEIVED: backchannel replies that completed a
 *	callback
 * @XR_SVC_STAT_CONNECTS_REJECTED: connection requests a listener refused
 * @XR_SVC_STAT_COUNT: number of counters
 *
 * The names shown through netlink are in stats.c. Add new counters at
 * the end: the order is the order they are listed in.
 */
enum xr_svc_stat {
	XR_SVC_STAT_CALLS_RECEIVED,
	XR_SVC_STAT_REPLIES_INLINE,
	XR_SVC_STAT_REPLIES_WRITE_CHUNK,
	XR_SVC_STAT_REPLIES_REPLY_CHUNK,
	XR_SVC_STAT_RDMA_READ_BYTES,
	XR_SVC_STAT_RDMA_WRITE_BYTES,
	XR_SVC_STAT_SQ_STARVES,
	XR_SVC_STAT_SEND_ERRORS,
	XR_SVC_STAT_RECV_ERRORS,
	XR_SVC_STAT_BAD_HEADERS,
	XR_SVC_STAT_RDMA_ERRORS_SENT,
	XR_SVC_STAT_BC_CALLS_SENT,
	XR_SVC_STAT_BC_REPLIES_RECEIVED,
	XR_SVC_STAT_SENDS_SIGNALED,
	XR_SVC_STAT_REMOTE_INVS,
	XR_SVC_STAT_SENDCTX_WAITS,
	XR_SVC_STAT_CONNECTS_REJECTED,
	XR_SVC_STAT_COUNT
};

/**
 * struct xr_svc_stats - the counters of one server connection
 * @ss_count: one per &enum xr_svc_stat
 */
struct xr_svc_stats {
	atomic64_t		ss_count[XR_SVC_STAT_COUNT];
};

/* Count into a counter a lower layer was given by its owner, if any. */
static inline void xr_count(atomic64_t *counter)
{
	if (counter)
		atomic64_inc(counter);
}

const char *xr_svc_stat_name(enum xr_svc_stat stat);
void xr_svc_stats_sum(const struct xr_svc_stats *ss, u64 *sum);
void xr_svc_stats_retire(const struct xr_svc_stats *ss);
void xr_svc_stats_retired(u64 *sum);

/* config.c */

/**
 * enum xr_cfg - the tunables, in the order of the spec's config attributes
 * @XR_CFG_CREDITS: credits a server connection grants
 * @XR_CFG_CLIENT_CREDITS: calls a client transport has in flight at most
 * @XR_CFG_INLINE_SEND: largest message sent inline
 * @XR_CFG_INLINE_RECV: largest message received inline
 * @XR_CFG_SQ_DEPTH: send queue slots of a server connection
 * @XR_CFG_RQ_DEPTH: receive queue depth of a server connection
 * @XR_CFG_SENDCTX_MAX: send contexts a server connection allocates, 0: any
 * @XR_CFG_MAX_FRWR_SEGMENTS: pages one client memory region registers
 * @XR_CFG_CONNECT_TIMEOUT: client connection establishment bound, ms
 * @XR_CFG_RECONNECT_MIN: client's first reconnect delay, ms
 * @XR_CFG_RECONNECT_MAX: client's longest reconnect delay, ms
 * @XR_CFG_IDLE_TIMEOUT: client's idle close, ms
 * @XR_CFG_SIGNAL_INTERVAL: Sends between requested completions, at most
 * @XR_CFG_COUNT: number of tunables
 */
enum xr_cfg {
	XR_CFG_CREDITS,
	XR_CFG_CLIENT_CREDITS,
	XR_CFG_INLINE_SEND,
	XR_CFG_INLINE_RECV,
	XR_CFG_SQ_DEPTH,
	XR_CFG_RQ_DEPTH,
	XR_CFG_SENDCTX_MAX,
	XR_CFG_MAX_FRWR_SEGMENTS,
	XR_CFG_CONNECT_TIMEOUT,
	XR_CFG_RECONNECT_MIN,
	XR_CFG_RECONNECT_MAX,
	XR_CFG_IDLE_TIMEOUT,
	XR_CFG_SIGNAL_INTERVAL,
	XR_CFG_COUNT
};

/* Which transports a tunable applies to (xr_config_def.cd_roles). */
#define XR_CFG_ROLE_SERVER	BIT(0)
#define XR_CFG_ROLE_CLIENT	BIT(1)

/**
 * struct xr_config_def - the definition of one tunable
 * @cd_name: its name, that of its spec attribute
 * @cd_attr: its attribute in the spec's config set
 * @cd_min: smallest value accepted
 * @cd_max: largest value accepted
 * @cd_default: value at module load
 * @cd_unit: what the value counts
 * @cd_roles: XR_CFG_ROLE_* of the transports it applies to
 * @cd_live: may change on a transport after its creation
 */
struct xr_config_def {
	const char	*cd_name;
	int		cd_attr;
	u32		cd_min;
	u32		cd_max;
	u32		cd_default;
	const char	*cd_unit;
	u8		cd_roles;
	bool		cd_live;
};

/**
 * struct xr_config - a value for every tunable
 * @cf_val: indexed by enum xr_cfg
 */
struct xr_config {
	u32	cf_val[XR_CFG_COUNT];
};

void xr_config_init(void);
const struct xr_config_def *xr_config_def(enum xr_cfg cfg);
const char *xr_config_check(enum xr_cfg cfg, u32 val);
const char *xr_config_not_live(enum xr_cfg cfg);
void xr_config_snapshot(struct xr_config *cfg);
void xr_config_set_defaults(const struct xr_config *vals, const bool *given);
unsigned long xr_config_ms_to_jiffies(const struct xr_config *cfg,
				      enum xr_cfg which);

/* sysctl.c */
int xr_sysctl_init(void);
void xr_sysctl_exit(void);

/* device.c */

/**
 * struct xr_device - an RDMA device as xrpcrdma sees it
 * @xd_list: entry in the device list, sorted by @xd_ibdev index
 * @xd_ibdev: the verbs device; valid while the entry is on the list
 * @xd_enabled: administrative switch; false keeps new transports off it
 */
struct xr_device {
	struct list_head	xd_list;
	struct ib_device	*xd_ibdev;
	bool			xd_enabled;
};

int xr_device_init(void);
void xr_device_exit(void);
bool xr_device_accepts(struct ib_device *ibdev);

/* ep.c */

struct xr_ep;

/**
 * struct xr_cid - a completion ID: follows one work request (or chain)
 *	from its post to its completion in the trace events (trace_common.h)
 * @ci_queue_id: the completion queue's resource ID (cq->res.id)
 * @ci_completion_id: a number the CQ's endpoint handed out at post time
 *
 * Only assigned while a trace event that reports it is enabled.
 */
struct xr_cid {
	u32	ci_queue_id;
	int	ci_completion_id;
};

/**
 * struct xr_ep_ops - what an endpoint's owner does on connection events
 * @eo_connect_request: listener only: a peer asks to connect on @id, with
 *	the RFC 8797 private data @peer (defaults when it sent none) and the
 *	RDMA Reads it can answer at once, @peer_rd_atom. Return
 *	0 after taking ownership of @id (xr_ep_adopt()), or a negative errno
 *	to refuse: the connection manager then destroys @id.
 * @eo_established: the connection is up
 * @eo_disconnected: the connection is gone, or the device is going away;
 *	the owner must stop using the endpoint and destroy it soon, from
 *	another context
 *
 * All three are called from the connection manager's context and may
 * sleep; none may destroy the endpoint they are called for.
 */
struct xr_ep_ops {
	int (*eo_connect_request)(struct xr_ep *listener, struct rdma_cm_id *id,
				  const struct xr_cm_pdata *peer,
				  u8 peer_rd_atom);
	void (*eo_established)(struct xr_ep *ep);
	void (*eo_disconnected)(struct xr_ep *ep);
};

/**
 * enum xr_ep_drain_state - the drain of an endpoint's queue pair
 * @XR_EP_UNDRAINED: work requests may be posted
 * @XR_EP_DRAINING: xr_ep_drain() is flushing the queue pair
 * @XR_EP_DRAINED: every posted work request has completed
 */
enum xr_ep_drain_state {
	XR_EP_UNDRAINED,
	XR_EP_DRAINING,
	XR_EP_DRAINED,
};

/**
 * struct xr_ep - an RDMA connection endpoint (or a listener)
 * @ep_id: the connection manager ID
 * @ep_ops: the owner's event callbacks
 * @ep_pd: protection domain (connections only)
 * @ep_scq: send completion queue
 * @ep_rcq: receive completion queue
 * @ep_qp: the queue pair (@ep_id->qp)
 * @ep_sq_depth: send queue depth
 * @ep_rq_depth: receive queue depth
 * @ep_peer: what the peer advertised in its RFC 8797 private data
 * @ep_peer_rd_atom: RDMA Reads the peer answers at once
 * @ep_drained: how far xr_ep_drain() got, an &enum xr_ep_drain_state
 * @ep_active: 1 on the connecting (client) side
 * @ep_cm_error: why the connection attempt or the connection ended
 *	(a negative errno), 0 while nothing went wrong
 * @ep_resolve_status: outcome of the last resolution step
 * @ep_resolve_done: completed when a resolution step finishes
 * @ep_owner_id: the owner's transport number, for events (0: none yet)
 * @ep_close_reason: why the connection ends, an
 *	&enum xrpcrdma_close_reason: the first cause recorded wins
 * @ep_listening: 1 for a listener (xr_ep_listen())
 * @ep_listen_addr: a listener's address and port, to listen again
 * @ep_listen_net: a listener's network namespace
 * @ep_listen_backlog: a listener's backlog
 * @ep_listen_lock: a listener's: serialises replacing and destroying
 *	@ep_id
 * @ep_listen_stopping: a listener's: set once xr_ep_destroy() began
 * @ep_relisten: a listener's: makes a new ID after an address change
 * @ep_relisten_tries: a listener's: failed tries of @ep_relisten since the
 *	address change, under @ep_listen_lock
 * @ep_scq_cids: completion IDs handed out on @ep_scq (xr_cid_assign())
 * @ep_rcq_cids: completion IDs handed out on @ep_rcq
 */
struct xr_ep {
	struct rdma_cm_id	*ep_id;
	const struct xr_ep_ops	*ep_ops;
	struct ib_pd		*ep_pd;
	struct ib_cq		*ep_scq;
	struct ib_cq		*ep_rcq;
	struct ib_qp		*ep_qp;
	u32			ep_sq_depth;
	u32			ep_rq_depth;
	struct xr_cm_pdata	ep_peer;
	u8			ep_peer_rd_atom;
	int			ep_drained;
	u8			ep_active;
	int			ep_cm_error;
	int			ep_resolve_status;
	struct completion	ep_resolve_done;
	u32			ep_owner_id;
	atomic_t		ep_close_reason;
	u8			ep_listening;
	struct sockaddr_storage	ep_listen_addr;
	struct net		*ep_listen_net;
	int			ep_listen_backlog;
	struct mutex		ep_listen_lock;	/* see above */
	bool			ep_listen_stopping;
	struct delayed_work	ep_relisten;
	unsigned int		ep_relisten_tries;
	atomic_t		ep_scq_cids;
	atomic_t		ep_rcq_cids;
};

/**
 * xr_cid_assign - give a work request about to be posted its completion ID
 * @cid: where the work request's context keeps it
 * @cq: the completion queue it completes on
 * @counter: that CQ's counter in its endpoint (ep_scq_cids, ep_rcq_cids)
 *
 * Callers only do this while a trace event reporting @cid is enabled.
 */
static inline void xr_cid_assign(struct xr_cid *cid, const struct ib_cq *cq,
				 atomic_t *counter)
{
	cid->ci_queue_id = cq->res.id;
	cid->ci_completion_id = atomic_inc_return(counter);
}

int xr_ep_listen(struct xr_ep *ep, const struct xr_ep_ops *ops,
		 struct net *net, struct sockaddr *sa, int backlog);
void xr_ep_adopt(struct xr_ep *ep, const struct xr_ep_ops *ops,
		 struct rdma_cm_id *id, const struct xr_cm_pdata *peer,
		 u8 peer_rd_atom);
int xr_ep_create_qp(struct xr_ep *ep, u32 sq_depth, u32 rq_depth,
		    u32 rw_ctxs);
int xr_ep_accept(struct xr_ep *ep, const struct xr_cm_pdata *ours);
int xr_ep_resolve(struct xr_ep *ep, const struct xr_ep_ops *ops,
		  struct net *net, struct sockaddr *dst,
		  unsigned long timeout_ms);
int xr_ep_connect(struct xr_ep *ep, const struct xr_cm_pdata *ours);
void xr_ep_disconnect(struct xr_ep *ep);
void xr_ep_drain(struct xr_ep *ep);

/**
 * xr_ep_check_wc - a completion of @ep is being handled
 * @ep: the endpoint whose queue pair the work request was posted on
 *
 * The drain flushed every posted work request, and nothing may be posted
 * after it: a completion handled later means something posted after the
 * drain, whose context may already be freed. Warns once.
 */
static inline void xr_ep_check_wc(const struct xr_ep *ep)
{
	WARN_ONCE(READ_ONCE(ep->ep_drained) == XR_EP_DRAINED,
		  XR_MODNAME ": completion after the queue pair was drained\n");
}

void xr_ep_destroy(struct xr_ep *ep);

/**
 * xr_ep_has_frwr - whether the endpoint's device has the memory management
 *	extensions: fast registration (FRWR), LOCAL_INV and invalidation
 *	by the peer's Send With Invalidate
 * @ep: an endpoint with its PD
 *
 * Return: true when it has them.
 */
static inline bool xr_ep_has_frwr(const struct xr_ep *ep)
{
	return ep->ep_pd->device->attrs.device_cap_flags &
	       IB_DEVICE_MEM_MGT_EXTENSIONS;
}

void xr_ep_set_close_reason(struct xr_ep *ep,
			    enum xrpcrdma_close_reason reason);
void xr_ep_report_wc_error(struct xr_ep *ep, enum xrpcrdma_wc_kind kind,
			   const struct ib_wc *wc);
enum xrpcrdma_close_reason xr_ep_close_reason(struct xr_ep *ep);

/* sendctx.c */

struct xr_sendq;

#define XR_SENDCTX_MAX_SGES	2

/**
 * struct xr_sendctx - one Send and its transport header buffer
 * @sc_list: entry on the pool's free list
 * @sc_pool: the pool the context belongs to
 * @sc_cqe: completion entry
 * @sc_wr: the Send work request
 * @sc_sges: scatter/gather list; sge 0 is the buffer below
 * @sc_buf: buffer, DMA-mapped once for the context's lifetime
 * @sc_buf_dma: DMA address of @sc_buf
 * @sc_buf_size: size of @sc_buf
 * @sc_slots: send queue slots the posted chain took (its retirement
 *	returns them)
 * @sc_signaled: the Send asked for a completion (and pins the owner)
 * @sc_cid: completion ID of the last Send posted (trace events)
 */
struct xr_sendctx {
	struct list_head	sc_list;
	struct xr_sendq		*sc_pool;
	struct ib_cqe		sc_cqe;
	struct ib_send_wr	sc_wr;
	struct ib_sge		sc_sges[XR_SENDCTX_MAX_SGES];
	void			*sc_buf;
	u64			sc_buf_dma;
	u32			sc_buf_size;
	u32			sc_slots;
	bool			sc_signaled;
	struct xr_cid		sc_cid;
};

/**
 * struct xr_sendq - the send contexts and send queue of one connection
 * @sq_lock: protects @sq_free, @sq_posted and the unsignaled run; held
 *	across ib_post_send() so that @sq_posted is in send queue order
 * @sq_free: contexts ready for use
 * @sq_posted: contexts posted and not yet retired, oldest first
 * @sq_signal_every: a completion is requested at least every this many
 *	Sends (1: every Send)
 * @sq_unsig_count: Sends posted unsignaled since the last signaled one
 * @sq_unsig_slots: send queue slots those hold
 * @sq_ep: the endpoint the Sends go out on
 * @sq_buf_size: size of each context's buffer
 * @sq_avail: send queue slots not in use; may go below zero briefly
 * @sq_wait: where posters wait for slots
 * @sq_closing: set when the connection closes: waiters give up
 * @sq_rw_failed: RDMA Read/Write sets whose chain failed to post, kept
 *	(mapped) until the drain; under @sq_lock
 * @sq_count_starves: the owner's counter of waits for a slot, or NULL
 * @sq_count_ctx_waits: the owner's counter of waits for a send context
 *	at the cap (@sq_max), or NULL
 * @sq_count_signaled: the owner's counter of Sends that asked for a
 *	completion, or NULL
 * @sq_count_errors: the owner's counter of Send completion errors other
 *	than flushes, or NULL
 * @sq_allocated: contexts allocated
 * @sq_max: most contexts to allocate, 0 for no limit; may change live
 * @sq_on_close: called once on the first completion error
 * @sq_owner: argument of @sq_on_close and of the owner's get/put
 * @sq_get: pin the owner while a signaled Send is outstanding
 * @sq_put: unpin the owner
 * @sq_tryget: pin the owner unless its last reference is gone (for the
 *	error completion of an unsignaled Send, which holds no pin); NULL
 *	when @sq_get cannot fail
 */
struct xr_sendq {
	spinlock_t		sq_lock;	/* see above */
	struct list_head	sq_free;
	struct list_head	sq_posted;
	u32			sq_signal_every;
	u32			sq_unsig_count;
	u32			sq_unsig_slots;
	struct xr_ep		*sq_ep;
	u32			sq_buf_size;
	atomic_t		sq_avail;
	wait_queue_head_t	sq_wait;
	bool			sq_closing;
	struct list_head	sq_rw_failed;
	atomic64_t		*sq_count_starves;
	atomic64_t		*sq_count_ctx_waits;
	atomic64_t		*sq_count_errors;
	atomic64_t		*sq_count_signaled;
	atomic_t		sq_allocated;
	u32			sq_max;
	void			(*sq_on_close)(void *owner);
	void			*sq_owner;
	void			(*sq_get)(void *owner);
	void			(*sq_put)(void *owner);
	bool			(*sq_tryget)(void *owner);
};

void xr_sendq_init(struct xr_sendq *sq, struct xr_ep *ep, u32 buf_size);
void xr_sendq_destroy(struct xr_sendq *sq);
void xr_sendq_close(struct xr_sendq *sq);
void xr_sendq_set_max(struct xr_sendq *sq, u32 max);
void xr_sendq_set_signal_every(struct xr_sendq *sq, u32 every);
u32 xr_sendq_signal_every(u32 interval, u32 sq_depth);
int xr_sendq_reserve(struct xr_sendq *sq, u32 n);
void xr_sendq_release(struct xr_sendq *sq, u32 n);
struct xr_sendctx *xr_sendctx_get(struct xr_sendq *sq);
void xr_sendctx_put(struct xr_sendctx *sc);
void xr_sendctx_set_invalidate(struct xr_sendctx *sc, u32 rkey);
int xr_sendctx_post(struct xr_sendctx *sc, u32 len);
int xr_sendctx_post_chain(struct xr_sendctx *sc, u32 len,
			  struct ib_send_wr *first, struct ib_send_wr *last,
			  u32 count);
void xr_sendq_snapshot(struct xr_sendq *sq, struct xr_conn_snap *cs);

/* recvctx.c */

struct xr_recvq;

/*
 * The largest chunk lists a server accepts in a call (svc_recv.c): what
 * a receive context's header may have to hold at most.
 */
#define XR_SVC_MAX_READ_SEGS	16
#define XR_SVC_MAX_WRITE_CHUNKS	4
#define XR_SVC_MAX_CHUNK_SEGS	16
#define XR_SVC_MAX_SEGS		32	/* Read, Write and Reply together */

/*
 * Lists a receive context holds in place: every reply the client takes
 * (one Write chunk or a Reply chunk of at most XR_REQ_MAX_WSEGS
 * segments, no Read list) and the common calls. A call that needs more
 * is decoded again into &struct xr_hdr_lists, taken for that request.
 */
#define XR_RC_WRITES		XR_SVC_MAX_WRITE_CHUNKS
#define XR_RC_READS		4
#define XR_RC_SEGS		8

/**
 * struct xr_hdr_lists - list storage for the largest call a server takes
 * @hl_writes: Write list
 * @hl_reads: Read list
 * @hl_segs: Write and Reply chunk segments
 */
struct xr_hdr_lists {
	struct xr_write_chunk	hl_writes[XR_SVC_MAX_WRITE_CHUNKS];
	struct xr_read_seg	hl_reads[XR_SVC_MAX_READ_SEGS];
	struct xr_seg		hl_segs[XR_SVC_MAX_SEGS];
};

/**
 * struct xr_payload - a byte range of a reply
 * @pl_off: where it begins
 * @pl_len: its length in bytes
 */
struct xr_payload {
	u32	pl_off;
	u32	pl_len;
};

/**
 * struct xr_recvctx - one posted Receive and its buffer
 * @rc_list: on the pool's free list, or the owner's ready queue
 * @rc_pool: the pool the context belongs to
 * @rc_cqe: completion entry
 * @rc_wr: the Receive work request
 * @rc_sge: its single scatter/gather entry
 * @rc_buf: buffer, DMA-mapped once for the context's lifetime
 * @rc_byte_len: bytes received
 * @rc_inv_rkey: the R_key the sender invalidated (Send With Invalidate);
 *	valid when @rc_remote_inv
 * @rc_remote_inv: the message came With Invalidate
 * @rc_npayloads: entries of @rc_payloads used
 * @rc_payloads: the reply's result payloads (READ data), as svc reported
 *	them through xpo_result_payload, in order: the n-th goes into the
 *	call's n-th Write chunk
 * @rc_hdr: the decoded transport header; its lists are in @rc_writes,
 *	@rc_reads and @rc_segs, or in @rc_lists
 * @rc_lists: larger list storage for the request being processed, or
 *	NULL; freed when the context goes back to its pool
 * @rc_writes: Write list storage in place
 * @rc_reads: Read list storage in place
 * @rc_segs: Write and Reply chunk segment storage in place
 * @rc_cid: completion ID of the Receive last posted (trace events)
 */
struct xr_recvctx {
	struct list_head	rc_list;
	struct xr_recvq		*rc_pool;
	struct ib_cqe		rc_cqe;
	struct ib_recv_wr	rc_wr;
	struct ib_sge		rc_sge;
	void			*rc_buf;
	u32			rc_byte_len;
	u32			rc_inv_rkey;
	bool			rc_remote_inv;
	u32			rc_npayloads;
	struct xr_payload	rc_payloads[XR_SVC_MAX_WRITE_CHUNKS];
	struct xr_hdr		rc_hdr;
	struct xr_hdr_lists	*rc_lists;
	struct xr_write_chunk	rc_writes[XR_RC_WRITES];
	struct xr_read_seg	rc_reads[XR_RC_READS];
	struct xr_seg		rc_segs[XR_RC_SEGS];
	struct xr_cid		rc_cid;
};

/**
 * struct xr_recvq - the receive contexts of one connection
 * @rq_lock: protects @rq_free and @rq_ready
 * @rq_free: contexts not posted
 * @rq_ready: contexts received, waiting for the owner
 * @rq_ep: the endpoint
 * @rq_buf_size: size of each buffer (the largest inline message received)
 * @rq_allocated: contexts allocated
 * @rq_lists: larger list storage (&struct xr_hdr_lists) held by contexts
 * @rq_posted: Receives posted whose completion was not handled yet
 * @rq_count_taken: the owner's count of messages received and not yet
 *	settled, or NULL: raised before @rq_posted drops, so the two never
 *	both miss a message
 * @rq_count_errors: the owner's counter of Receive completion errors
 *	other than flushes, or NULL
 * @rq_on_recv: optional; offered each received message first, from the
 *	completion handler (process context, the completion queue's
 *	worker, so it must not wait for anything a completion brings).
 *	Returns true when it took the context, which is then not queued
 * @rq_on_ready: called after a context was added to @rq_ready
 * @rq_on_close: called on a completion error other than a flush
 * @rq_owner: argument of the callbacks
 */
struct xr_recvq {
	spinlock_t		rq_lock;	/* rq_free, rq_ready */
	struct list_head	rq_free;
	struct list_head	rq_ready;
	struct xr_ep		*rq_ep;
	u32			rq_buf_size;
	atomic_t		rq_allocated;
	atomic_t		rq_lists;
	atomic_t		rq_posted;
	atomic_t		*rq_count_taken;
	atomic64_t		*rq_count_errors;
	bool			(*rq_on_recv)(void *owner,
					      struct xr_recvctx *rc);
	void			(*rq_on_ready)(void *owner);
	void			(*rq_on_close)(void *owner);
	void			*rq_owner;
};

void xr_recvq_init(struct xr_recvq *rq, struct xr_ep *ep, u32 buf_size);
void xr_recvq_destroy(struct xr_recvq *rq);
int xr_recvq_post(struct xr_recvq *rq, u32 count);
struct xr_recvctx *xr_recvq_next_ready(struct xr_recvq *rq);
void xr_recvctx_put(struct xr_recvctx *rc);
bool xr_recvctx_drop(struct xr_recvctx *rc);
int xr_recvctx_decode(struct xr_recvctx *rc, const struct xr_limits *lim,
		      bool may_grow);
void xr_recvq_snapshot(struct xr_recvq *rq, struct xr_conn_snap *cs);

/* Receives posted and not yet seen completing. */
static inline int xr_recvq_posted(struct xr_recvq *rq)
{
	return atomic_read(&rq->rq_posted);
}

/* rw.c */

/**
 * struct xr_rw_op - the RDMA Read or Write of one remote segment
 * @ro_ctx: the rdma_rw context
 * @ro_sgl: local memory
 * @ro_nents: entries in @ro_sgl
 */
struct xr_rw_op {
	struct rdma_rw_ctx	ro_ctx;
	struct scatterlist	*ro_sgl;
	u32			ro_nents;
};

/**
 * struct xr_rw_set - the rdma_rw contexts of one request, in one
 *	allocation that outlives the request when its chain failed to post
 * @rs_entry: on the send queue's @sq_rw_failed then
 * @rs_dir: the direction they were mapped for
 * @rs_nops: entries used in @rs_ops
 * @rs_ops: one per remote segment
 */
struct xr_rw_set {
	struct list_head	rs_entry;
	enum dma_data_direction	rs_dir;
	u32			rs_nops;
	struct xr_rw_op		rs_ops[];
};

/**
 * struct xr_rw - the RDMA Reads or Writes of one request
 * @rw_sq: the send queue whose slots they take
 * @rw_dir: %DMA_FROM_DEVICE (Read) or %DMA_TO_DEVICE (Write)
 * @rw_set: the contexts; NULL once handed to the send queue
 * @rw_ops: @rw_set's, one per remote segment
 * @rw_nops: entries used in @rw_ops
 * @rw_max_ops: entries in @rw_ops
 * @rw_nwrs: work requests the transfers need
 * @rw_cqe: completion entry of the chain's last work request
 * @rw_done: completed by the chain's completion
 * @rw_status: the work completion status
 * @rw_cid: completion ID of the chain (trace events)
 */
struct xr_rw {
	struct xr_sendq		*rw_sq;
	enum dma_data_direction	rw_dir;
	struct xr_rw_set	*rw_set;
	struct xr_rw_op		*rw_ops;
	u32			rw_nops;
	u32			rw_max_ops;
	u32			rw_nwrs;
	struct ib_cqe		rw_cqe;
	struct completion	rw_done;
	int			rw_status;
	struct xr_cid		rw_cid;
};

int xr_rw_init(struct xr_rw *rw, struct xr_sendq *sq,
	       enum dma_data_direction dir, u32 max_ops);
int xr_rw_add_xdr(struct xr_rw *rw, const struct xr_seg *seg,
		  const struct xdr_buf *buf, u32 off, u32 len);
int xr_rw_run(struct xr_rw *rw);
void xr_rw_destroy(struct xr_rw *rw);
void xr_rw_reap(struct xr_sendq *sq);

/* svc_transport.c */

/* Longest RPC service name kept with a transport ("nfsd", "lockd"). */
#define XR_SVC_SERV_NAME_LEN	32

/**
 * struct xr_svc_xprt - a server listener or connection
 * @sx_xprt: the SUNRPC transport
 * @sx_ep: its RDMA endpoint
 * @sx_lock: protects @sx_accept_q
 * @sx_accept_q: listener: connections waiting for xpo_accept
 * @sx_accept_entry: connection: entry on its listener's @sx_accept_q
 * @sx_sq: send contexts and send queue
 * @sx_rq: receive contexts
 * @sx_credits: credits granted to the client (receives kept posted)
 * @sx_inline_send: largest message sent inline (the peer's receive size)
 * @sx_inline_recv: largest message received inline (our buffers)
 * @sx_remote_inv: the client takes Send With Invalidate (RFC 8797)
 * @sx_flags: lifetime bits, see svc_transport.c
 * @sx_free_work: frees the transport outside of any svc context
 * @sx_id: the transport's number in the registry (0: not registered)
 * @sx_serv_name: name of the RPC service it belongs to, copied while the
 *	service was known to be alive (svc may free it before the transport)
 * @sx_stats: connection: its counters
 * @sx_config: connection: the tunables it was created with; the live ones
 *	change with config-set (see config.c)
 */
struct xr_svc_xprt {
	struct svc_xprt		sx_xprt;
	struct xr_ep		sx_ep;
	spinlock_t		sx_lock;	/* protects sx_accept_q */
	struct list_head	sx_accept_q;
	struct list_head	sx_accept_entry;
	struct xr_sendq		sx_sq;
	struct xr_recvq		sx_rq;
	u32			sx_credits;
	u32			sx_inline_send;
	u32			sx_inline_recv;
	bool			sx_remote_inv;
	unsigned long		sx_flags;
	struct work_struct	sx_free_work;
	u32			sx_id;
	struct sockaddr_storage	sx_peer;	/* with its CM port */
	char			sx_serv_name[XR_SVC_SERV_NAME_LEN];
	struct xr_svc_stats	sx_stats;
	struct xr_config	sx_config;
};

/**
 * xr_svc_count - add to a counter of a server connection
 * @sx: the connection
 * @stat: which counter
 * @n: how much (1 for events, a length for byte counters)
 */
static inline void xr_svc_count(struct xr_svc_xprt *sx, enum xr_svc_stat stat,
				u64 n)
{
	atomic64_add(n, &sx->sx_stats.ss_count[stat]);
}

/*
 * Side-by-side with the in-tree rpcrdma, the server class needs an ident
 * of its own: nfsd picks the NFSv4.1 backchannel by ident | BC.
 */
#define XR_XPRT_TRANSPORT_SIDEBYSIDE	0x1f00

int xr_svc_init(void);
void xr_svc_exit(void);
enum xrpcrdma_mode xr_svc_mode(void);
void xr_svc_close(struct xr_svc_xprt *sx);
void xr_svc_fill_snap(struct xr_svc_xprt *sx, struct xr_xprt_snap *snap);
bool xr_svc_is_listener(struct xr_svc_xprt *sx);
enum xrpcrdma_transport_state xr_svc_state(struct xr_svc_xprt *sx);
void xr_svc_totals(u64 *sum);
struct xr_svc_xprt *xr_svc_of_bc(struct svc_xprt *xprt);

/* svc_backchannel.c */

/* Receives and Sends each connection keeps for backchannel traffic. */
#define XR_BC_MAX_REQUESTS	2

int xr_bc_init(int svc_ident);
void xr_bc_exit(void);
void xr_bc_detach(struct xr_svc_xprt *sx);
bool xr_bc_is_reply(const void *msg, u32 len);
int xr_bc_reply(struct xr_svc_xprt *sx, const void *msg, u32 len,
		u32 credits);

/* svc_recv.c */
int xr_svc_recvfrom(struct svc_rqst *rqstp);
int xr_svc_result_payload(struct svc_rqst *rqstp, unsigned int offset,
			  unsigned int length);
void xr_svc_release_ctxt(struct svc_xprt *xprt, void *ctxt);

/* svc_send.c */
int xr_svc_sendto(struct svc_rqst *rqstp);
int xr_svc_send_error(struct xr_svc_xprt *sx, __be32 xid, u32 err);

/* xprt_transport.c, xprt_marshal.c, xprt_frwr.c: the client transport */

struct xr_xprt;
struct xr_xconn;

/**
 * enum xr_xprt_stat - what the client counts for each transport
 * @XR_XPRT_STAT_READ_SEGS: segments offered in Read lists
 * @XR_XPRT_STAT_WRITE_SEGS: segments offered in Write lists
 * @XR_XPRT_STAT_REPLY_SEGS: segments offered in Reply chunks
 * @XR_XPRT_STAT_RDMA_REQ_BYTES: call bytes the server pulls by RDMA Read
 * @XR_XPRT_STAT_RDMA_REPLY_BYTES: reply bytes the server pushed by RDMA
 *	Write
 * @XR_XPRT_STAT_PULLUP_BYTES: call bytes copied into Send buffers
 * @XR_XPRT_STAT_FIXUP_BYTES: reply bytes copied out of Receive buffers
 * @XR_XPRT_STAT_FAILED_MARSHAL: calls that could not be marshaled
 * @XR_XPRT_STAT_BAD_REPLIES: replies dropped because of their header
 * @XR_XPRT_STAT_NOMSG_CALLS: calls sent as RDMA_NOMSG
 * @XR_XPRT_STAT_MRS_ALLOCATED: memory regions allocated
 * @XR_XPRT_STAT_LOCAL_INVS: LOCAL_INV work requests posted
 * @XR_XPRT_STAT_EMPTY_SENDCTX: sends that found no send context
 * @XR_XPRT_STAT_INLINE_CALLS: calls sent entirely inline
 * @XR_XPRT_STAT_TIMEOUTS: RPC timeouts that forced a disconnect
 * @XR_XPRT_STAT_RECONNECTS: connections made after the first
 * @XR_XPRT_STAT_ENOBUFS: send_request returns of -ENOBUFS
 * @XR_XPRT_STAT_RPCS_SENT: calls posted
 * @XR_XPRT_STAT_READ_CHUNK_CALLS: calls posted with a Read list
 * @XR_XPRT_STAT_WRITE_CHUNK_CALLS: calls posted offering a Write chunk
 * @XR_XPRT_STAT_REPLY_CHUNK_CALLS: calls posted offering a Reply chunk
 * @XR_XPRT_STAT_REGISTRATIONS: FastReg work requests posted
 * @XR_XPRT_STAT_BC_CALLS_RECEIVED: backchannel (NFSv4.1 callback) calls
 *	from the server handed to the callback service
 * @XR_XPRT_STAT_BC_CALLS_DROPPED: backchannel calls dropped: malformed,
 *	too long, no free backchannel request, or no callback service
 * @XR_XPRT_STAT_BC_REPLIES_SENT: replies to backchannel calls posted
 * @XR_XPRT_STAT_SENDS_SIGNALED: Sends that asked for a completion
 * @XR_XPRT_STAT_REMOTE_INVS: regions the server invalidated (Send With
 *	Invalidate), so no LOCAL_INV was needed
 * @XR_XPRT_STAT_DIRECT_REPLIES: replies completed in the Receive
 *	completion handler, with no hand-off to the reply worker
 * @XR_XPRT_STAT_RECV_SHORT_COMPLETIONS: RPCs completed while fewer
 *	Receives were posted than the connection keeps posted (xc_recvs)
 * @XR_XPRT_STAT_COUNT: number of counters
 *
 * The names shown through netlink are in stats.c. Add new counters at
 * the end: print_stats (mountstats) reads them by name here.
 */
enum xr_xprt_stat {
	XR_XPRT_STAT_READ_SEGS,
	XR_XPRT_STAT_WRITE_SEGS,
	XR_XPRT_STAT_REPLY_SEGS,
	XR_XPRT_STAT_RDMA_REQ_BYTES,
	XR_XPRT_STAT_RDMA_REPLY_BYTES,
	XR_XPRT_STAT_PULLUP_BYTES,
	XR_XPRT_STAT_FIXUP_BYTES,
	XR_XPRT_STAT_FAILED_MARSHAL,
	XR_XPRT_STAT_BAD_REPLIES,
	XR_XPRT_STAT_NOMSG_CALLS,
	XR_XPRT_STAT_MRS_ALLOCATED,
	XR_XPRT_STAT_LOCAL_INVS,
	XR_XPRT_STAT_EMPTY_SENDCTX,
	XR_XPRT_STAT_INLINE_CALLS,
	XR_XPRT_STAT_TIMEOUTS,
	XR_XPRT_STAT_RECONNECTS,
	XR_XPRT_STAT_ENOBUFS,
	XR_XPRT_STAT_RPCS_SENT,
	XR_XPRT_STAT_READ_CHUNK_CALLS,
	XR_XPRT_STAT_WRITE_CHUNK_CALLS,
	XR_XPRT_STAT_REPLY_CHUNK_CALLS,
	XR_XPRT_STAT_REGISTRATIONS,
	XR_XPRT_STAT_BC_CALLS_RECEIVED,
	XR_XPRT_STAT_BC_CALLS_DROPPED,
	XR_XPRT_STAT_BC_REPLIES_SENT,
	XR_XPRT_STAT_SENDS_SIGNALED,
	XR_XPRT_STAT_REMOTE_INVS,
	XR_XPRT_STAT_DIRECT_REPLIES,
	XR_XPRT_STAT_RECV_SHORT_COMPLETIONS,
	XR_XPRT_STAT_COUNT
};

const char *xr_xprt_stat_at(unsigned int pos, enum xr_xprt_stat *stat);

/* Largest message either side sends inline (RFC 8797 private data). */
#define XR_XPRT_INLINE_SIZE	4096

/* Most memory regions one request registers (call and reply chunks). */
#define XR_REQ_MAX_MRS		8
/* Most segments in the Write chunk or Reply chunk a request offers. */
#define XR_REQ_MAX_WSEGS	4
/* Segments the Read list of one call may carry. */
#define XR_CALL_MAX_READ_SEGS	8

/**
 * struct xr_mr - one FRWR memory region of a connection
 * @mr_list: on the connection's free list, or its request's list
 * @mr_all: on the connection's list of every region
 * @mr_conn: the connection whose PD it belongs to
 * @mr_ibmr: the verbs memory region
 * @mr_sg: scatterlist, xc_max_pages entries
 * @mr_nents: entries DMA-mapped; 0 when not mapped
 * @mr_dir: direction of the mapping
 * @mr_reg_wr: the registration work request
 * @mr_inv_wr: the LOCAL_INV work request
 * @mr_reg_cqe: completion entry of the registration (errors only)
 * @mr_inv_cqe: completion entry of the invalidation
 * @mr_remote_inv: the server invalidated it with the reply (Send With
 *	Invalidate): no LOCAL_INV is posted for it
 * @mr_unposted: mapped with a new key whose registration was not posted
 *	(yet): the device does not know the key, nothing is invalidated
 * @mr_old_key: the key byte of the last registration posted, put back
 *	when an unposted one is let go
 * @mr_reg_cid: completion ID of the last registration posted (trace events)
 * @mr_inv_cid: completion ID of the last LOCAL_INV posted (trace events)
 */
struct xr_mr {
	struct list_head	mr_list;
	struct list_head	mr_all;
	struct xr_xconn		*mr_conn;
	struct ib_mr		*mr_ibmr;
	struct scatterlist	*mr_sg;
	int			mr_nents;
	enum dma_data_direction	mr_dir;
	struct ib_reg_wr	mr_reg_wr;
	struct ib_send_wr	mr_inv_wr;
	struct ib_cqe		mr_reg_cqe;
	struct ib_cqe		mr_inv_cqe;
	bool			mr_remote_inv;
	bool			mr_unposted;
	u8			mr_old_key;
	struct xr_cid		mr_reg_cid;
	struct xr_cid		mr_inv_cid;
};

/* Bits of xr_xconn.xc_flags */
enum {
	XR_XC_ESTABLISHED,	/* the connection manager said so */
	XR_XC_PUBLISHED,	/* the transport uses it (xr_xprt.rx_conn) */
	XR_XC_DOWN,		/* disconnected, or being closed */
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
 * @xc_mr_lock: protects @xc_mr_free
 * @xc_mr_free: memory regions ready for use
 * @xc_mr_all: every memory region allocated
 * @xc_post_rwsem: held for reading around posts outside the transport's
 *	write lock (invalidations, Receives); taken for writing once by
 *	the close, so none is posted after the queue pair is drained
 * @xc_max_pages: pages one memory region maps
 * @xc_inline_send: largest call sent inline (the server's receive size)
 * @xc_inline_recv: largest reply received inline (our buffers)
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
	spinlock_t		xc_mr_lock;	/* protects xc_mr_free */
	struct list_head	xc_mr_free;
	struct list_head	xc_mr_all;
	struct rw_semaphore	xc_post_rwsem;
	u32			xc_max_pages;
	u32			xc_inline_send;
	u32			xc_inline_recv;
	u32			xc_recvs;
	atomic_t		xc_unsettled;
	struct sockaddr_storage	xc_local;
};

/* How a request's reply comes back. */
enum xr_reply_kind {
	XR_REPLY_INLINE,	/* inline only */
	XR_REPLY_WRITE,		/* READ payload into a Write chunk */
	XR_REPLY_CHUNK,		/* the whole reply into a Reply chunk */
};

/**
 * struct xr_req - the transport's part of one RPC request: the send and
 *	receive buffers (rq_buffer and rq_rbuffer point into @rr_buf) and the
 *	memory regions registered for its chunks
 * @rr_mutex: serialises registration, invalidation and reply handling
 * @rr_conn: the connection @rr_mrs belong to (a reference), or NULL
 * @rr_mrs: memory regions registered for the current transmission
 * @rr_nmrs: entries on @rr_mrs
 * @rr_reply_kind: how the reply was asked to come back
 * @rr_wsegs: the Write chunk or Reply chunk offered
 * @rr_nwsegs: entries in @rr_wsegs
 * @rr_buf: the buffers
 */
struct xr_req {
	struct mutex		rr_mutex;	/* see above */
	struct xr_xconn		*rr_conn;
	struct list_head	rr_mrs;
	u32			rr_nmrs;
	enum xr_reply_kind	rr_reply_kind;
	struct xr_seg		rr_wsegs[XR_REQ_MAX_WSEGS];
	u32			rr_nwsegs;
	u8			rr_buf[] __aligned(8);
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

int xr_xprt_init(void);
void xr_xprt_exit(void);
void xr_xconn_put(struct xr_xconn *c);
void xr_xconn_fail(struct xr_xconn *c);
void xr_xconn_recv_replace(struct xr_xconn *c, struct xr_recvctx *rc,
			   bool settle);
void xr_xprt_fill_snap(struct xr_xprt *rx, struct xr_xprt_snap *snap);

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
size_t xr_xbc_maxpayload(struct rpc_xprt *xprt);
unsigned int xr_xbc_num_slots(struct rpc_xprt *xprt);
int xr_xbc_setup(struct rpc_xprt *xprt, unsigned int reqs);
void xr_xbc_destroy(struct rpc_xprt *xprt, unsigned int reqs);
void xr_xbc_free_rqst(struct rpc_rqst *rqst);
bool xr_xbc_is_call(const struct xr_recvctx *rc);
void xr_xbc_receive_call(struct xr_xconn *c, struct xr_recvctx *rc);
int xr_xbc_send_reply(struct xr_xprt *rx, struct xr_xconn *c,
		      struct rpc_rqst *rqst);

/* xprt_frwr.c */
int xr_frwr_pool_init(struct xr_xconn *c, u32 count);
void xr_frwr_pool_orphan(struct xr_xconn *c);
void xr_frwr_pool_destroy(struct xr_xconn *c);
int xr_frwr_map_buf(struct xr_xconn *c, struct xr_req *req, void *kva,
		    u32 len, bool remote_write, struct xr_seg *seg);
int xr_frwr_map_pages(struct xr_xconn *c, struct xr_req *req,
		      struct xdr_buf *buf, bool remote_write,
		      struct xr_seg *segs, u32 max_segs);
struct ib_send_wr *xr_frwr_reg_chain(struct xr_req *req, u32 *count);
bool xr_frwr_release_invalidated(struct xr_req *req, struct xr_xconn *c,
				 u32 rkey);
void xr_frwr_remote_inv(struct xr_req *req, u32 rkey);
void xr_frwr_release(struct xr_req *req);

/* bench.c */
#define XR_BENCH_MAX_VERSION	31

/**
 * struct xr_bench_params - what a benchmark runs
 * @transport: &enum xrpcrdma_bench_transport
 * @addr: the server's address and port
 * @addrlen: the length of @addr's family
 * @program: RPC program
 * @version: RPC version, 1 to %XR_BENCH_MAX_VERSION
 * @count: calls to send
 * @concurrency: calls in flight at most
 */
struct xr_bench_params {
	u32			transport;
	struct sockaddr_storage	addr;
	size_t			addrlen;
	u32			program;
	u32			version;
	u32			count;
	u32			concurrency;
};

/**
 * struct xr_bench_result - a benchmark as bench-get shows it
 * @params: what it runs
 * @id: its number
 * @running: not finished yet (the figures below @errors are 0)
 * @done: calls completed
 * @errors: calls completed with an error
 * @status: 0, or the errno that ended it early
 * @elapsed_ns: first call to last completion
 * @ops_per_sec: successful calls a second
 * @p50_ns: median round trip
 * @p99_ns: 99th percentile round trip
 * @p999_ns: 99.9th percentile round trip
 * @max_ns: longest round trip
 */
struct xr_bench_result {
	struct xr_bench_params	params;
	u32			id;
	bool			running;
	u32			done;
	u32			errors;
	int			status;
	u64			elapsed_ns;
	u64			ops_per_sec;
	u64			p50_ns;
	u64			p99_ns;
	u64			p999_ns;
	u64			max_ns;
};

int xr_bench_start(struct net *net, const struct xr_bench_params *p, u32 *id);
int xr_bench_get(u32 id, bool next, struct xr_bench_result *r);
void xr_bench_exit(void);

/* fault.c */

/* Number of fault points (enum xrpcrdma_fault_point). */
#define XR_FAULT_POINT_COUNT	(XRPCRDMA_FAULT_POINT_ADDR_CHANGE + 1)

/**
 * struct xr_fault_arm - how a fault point is armed
 * @fa_trigger: an &enum xrpcrdma_fault_trigger; off: disarmed
 * @fa_n: nth and every: which hit fires
 * @fa_probability: probability: the chance of each hit, per million
 * @fa_times: every and probability: most firings, 0 for no limit
 * @fa_errno: the points that fail an operation: the positive errno it
 *	returns negated
 * @fa_delay_ms: completion-delay: how long a completion waits
 * @fa_transport_id: only this transport hits the point; 0: every one
 */
struct xr_fault_arm {
	u32	fa_trigger;
	u32	fa_n;
	u32	fa_probability;
	u32	fa_times;
	u32	fa_errno;
	u32	fa_delay_ms;
	u32	fa_transport_id;
};

DECLARE_STATIC_KEY_FALSE(xr_fault_key);

const char *xr_fault_name(enum xrpcrdma_fault_point point);
bool xr_fault_takes_errno(enum xrpcrdma_fault_point point);
int __xr_fault_hit(enum xrpcrdma_fault_point point, const struct xr_ep *ep);
void __xr_fault_wc(const struct xr_ep *ep, struct ib_wc *wc);
int xr_fault_set(enum xrpcrdma_fault_point point,
		 const struct xr_fault_arm *arm);
void xr_fault_get(enum xrpcrdma_fault_point point, struct xr_fault_arm *arm,
		  u64 *hits, u64 *fired);
void xr_fault_exit(void);

/**
 * xr_fault_hit - reach a fault point
 * @point: which one
 * @ep: the endpoint of the transport reaching it, or NULL
 *
 * A patched-out branch while no point is armed. The caller treats a
 * non-zero return as the failure of the operation the point stands for,
 * and takes the path a real failure takes.
 *
 * Return: 0, or the fired point's value (see __xr_fault_hit()).
 */
static __always_inline int xr_fault_hit(enum xrpcrdma_fault_point point,
					const struct xr_ep *ep)
{
	if (static_branch_unlikely(&xr_fault_key))
		return __xr_fault_hit(point, ep);
	return 0;
}

/**
 * xr_fault_wc - let the completion fault points act on a completion
 * @ep: the endpoint the work request was posted on
 * @wc: the completion; its status may be changed to an error
 *
 * For completion handlers, first thing; they may sleep here.
 */
static __always_inline void xr_fault_wc(const struct xr_ep *ep,
					struct ib_wc *wc)
{
	if (static_branch_unlikely(&xr_fault_key))
		__xr_fault_wc(ep, wc);
}

/* registry.c */
struct xr_xprt;
void xr_reg_lock(void);
void xr_reg_unlock(void);
void xr_reg_assert_held(void);
int xr_reg_add_svc(struct xr_svc_xprt *sx, u32 *id);
void xr_reg_del_svc(u32 id);
int xr_reg_add_client(struct xr_xprt *rx);
void xr_reg_del_client(u32 id);
struct xr_svc_xprt *xr_reg_find_svc(u32 id);
/* What xr_reg_walk_svc() does with each server transport. */
typedef void (*xr_reg_svc_fn)(struct xr_svc_xprt *sx, void *arg);
void xr_reg_walk_svc(xr_reg_svc_fn fn, void *arg);
void xr_reg_exit(void);

/* nl.c: the rest of the notify interface is in snap.h */
int xr_nl_init(void);
void xr_nl_exit(void);
void xr_nl_notify_bench(struct net *net, const struct xr_bench_result *r,
			bool done);

#endif /* _XRPCRDMA_H */
