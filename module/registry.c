// SPDX-License-Identifier: GPL-2.0
/*
 * registry.c - the numbers of the transports of both roles. Every server
 * listener and connection svc owns, and every client transport, is listed
 * by a number that is not reused soon, so that netlink can show them and
 * a dump can resume by number; a number names one transport of either
 * role. Client entries carry the tag XR_REG_CLIENT.
 *
 * A server transport enters the registry together with svc_xprt_init(),
 * under the registry's mutex, so nobody sees it half made, and leaves it
 * before anything of it is freed: under the mutex its memory is there,
 * though svc may already have dropped its last reference. A mutex, not a
 * spinlock: copying a client transport takes that transport's own mutex.
 *
 * The registry keeps pointers only: it reads no transport. What netlink
 * sees of one is a copy its owner makes (xr_svc_fill_snap(),
 * xr_xprt_fill_snap()).
 */
#include <linux/mutex.h>
#include <linux/xarray.h>

#include "registry.h"
#include "snap.h"
#include "svc.h"
#include "xprt.h"

static DEFINE_MUTEX(xr_reg_mutex);
static DEFINE_XARRAY_ALLOC1(xr_reg);
static u32 xr_reg_next_id;
/* xa_tag_pointer() tag of a client transport's entry */
#define XR_REG_CLIENT	1

/**
 * xr_reg_lock - hold the registry: listed transports stay in memory
 */
void xr_reg_lock(void)
{
	mutex_lock(&xr_reg_mutex);
}

/**
 * xr_reg_unlock - release xr_reg_lock()
 */
void xr_reg_unlock(void)
{
	mutex_unlock(&xr_reg_mutex);
}

/**
 * xr_reg_assert_held - lockdep: the caller holds xr_reg_lock()
 */
void xr_reg_assert_held(void)
{
	lockdep_assert_held(&xr_reg_mutex);
}

/**
 * xr_reg_add_svc - give a server transport its number
 * @sx: the transport
 * @id: set to its number
 *
 * Caller holds xr_reg_lock().
 *
 * Return: 0, or a negative errno from the xarray.
 */
int xr_reg_add_svc(struct xr_svc_xprt *sx, u32 *id)
{
	int err;

	lockdep_assert_held(&xr_reg_mutex);
	err = xa_alloc_cyclic(&xr_reg, id, sx, XA_LIMIT(1, U32_MAX),
			      &xr_reg_next_id, GFP_KERNEL);
	return err < 0 ? err : 0;
}

/**
 * xr_reg_del_svc - take a server transport's number away
 * @id: its number
 *
 * Caller holds xr_reg_lock().
 */
void xr_reg_del_svc(u32 id)
{
	lockdep_assert_held(&xr_reg_mutex);
	xa_erase(&xr_reg, id);
}

/**
 * xr_reg_add_client - give a client transport its number
 * @rx: the transport, fully set up
 *
 * Return: the number (never 0), or a negative errno from the xarray.
 */
int xr_reg_add_client(struct xr_xprt *rx)
{
	u32 id;
	int err;

	mutex_lock(&xr_reg_mutex);
	err = xa_alloc_cyclic(&xr_reg, &id, xa_tag_pointer(rx, XR_REG_CLIENT),
			      XA_LIMIT(1, U32_MAX), &xr_reg_next_id,
			      GFP_KERNEL);
	mutex_unlock(&xr_reg_mutex);
	return err < 0 ? err : id;
}

/**
 * xr_reg_del_client - take a client transport's number away
 * @id: its number; 0 does nothing
 *
 * After this returns nobody walking the registry sees the transport any
 * more, so its memory may go.
 */
void xr_reg_del_client(u32 id)
{
	if (!id)
		return;
	mutex_lock(&xr_reg_mutex);
	xa_erase(&xr_reg, id);
	mutex_unlock(&xr_reg_mutex);
}

/* The network namespace a listed transport belongs to. */
static struct net *xr_reg_net(struct xr_svc_xprt *sx, struct xr_xprt *rx)
{
	return sx ? sx->sx_xprt.xpt_net : rx->rx_xprt.xprt_net;
}

/*
 * The transport of @net of either role numbered @id or, with @next, the
 * one of @net with the lowest number at or above @id: a server one in
 * *@sx, a client one in *@rx. Walking with the last number seen plus one
 * lists every transport of @net once, also across transports coming and
 * going. Transports of other namespaces are not there for the caller.
 * Caller holds the mutex. Return: its number, or 0 when there is none.
 */
static u32 xr_reg_lookup(struct net *net, u32 id, bool next,
			 struct xr_svc_xprt **sx, struct xr_xprt **rx)
{
	unsigned long index = id;
	void *entry;

	lockdep_assert_held(&xr_reg_mutex);
	for (;;) {
		*sx = NULL;
		*rx = NULL;
		if (next)
			entry = xa_find(&xr_reg, &index, U32_MAX, XA_PRESENT);
		else
			entry = index ? xa_load(&xr_reg, index) : NULL;
		if (!entry)
			return 0;
		if (xa_pointer_tag(entry) == XR_REG_CLIENT)
			*rx = xa_untag_pointer(entry);
		else
			*sx = entry;
		if (net_eq(xr_reg_net(*sx, *rx), net))
			return index;
		if (!next || index >= U32_MAX)
			break;
		index++;
	}
	*sx = NULL;
	*rx = NULL;
	return 0;
}

/**
 * xr_reg_find_svc - the server transport numbered @id
 * @net: the caller's network namespace: transports of others are not found
 * @id: its number
 *
 * Caller holds xr_reg_lock().
 *
 * Return: the transport; NULL when a client transport of @net has that
 * number; ERR_PTR(-ENOENT) when no transport of @net has it.
 */
struct xr_svc_xprt *xr_reg_find_svc(struct net *net, u32 id)
{
	struct xr_svc_xprt *sx;
	struct xr_xprt *rx;

	if (!xr_reg_lookup(net, id, false, &sx, &rx))
		return ERR_PTR(-ENOENT);
	return sx;
}

/**
 * xr_reg_walk_svc - call @fn for every listed server transport
 * @fn: what to do with each
 * @arg: passed to @fn
 *
 * Caller holds xr_reg_lock().
 */
void xr_reg_walk_svc(xr_reg_svc_fn fn, void *arg)
{
	unsigned long index;
	void *entry;

	lockdep_assert_held(&xr_reg_mutex);
	xa_for_each(&xr_reg, index, entry)
		if (xa_pointer_tag(entry) != XR_REG_CLIENT)
			fn(entry, arg);
}

/**
 * xr_xprt_snapshot - a copy of one listed transport, for netlink
 * @net: the caller's network namespace: only its transports are copied
 * @id: its number, or with @next where to start looking
 * @next: take the transport with the lowest number at or above @id
 * @snap: where to copy it
 *
 * Context: process, sleeps (takes the registry mutex, and a client
 * transport's own mutex).
 *
 * Return: 0, or -ENOENT when @net has no such transport.
 */
int xr_xprt_snapshot(struct net *net, u32 id, bool next,
		     struct xr_xprt_snap *snap)
{
	struct xr_svc_xprt *sx;
	struct xr_xprt *rx;
	int err = 0;

	mutex_lock(&xr_reg_mutex);
	if (!xr_reg_lookup(net, id, next, &sx, &rx))
		err = -ENOENT;
	else if (rx)
		xr_xprt_fill_snap(rx, snap);
	else
		xr_svc_fill_snap(sx, snap);
	mutex_unlock(&xr_reg_mutex);
	return err;
}

/**
 * xr_xprt_config_get - the tunables one client transport was created with
 * @net: the caller's network namespace (the transport's must be it)
 * @id: its number
 * @cfg: where to copy them
 *
 * A client transport's values never change under it.
 *
 * Return: 0, or -ENOENT when no client transport of @net has that number.
 */
int xr_xprt_config_get(struct net *net, u32 id, struct xr_config *cfg)
{
	struct xr_svc_xprt *sx;
	struct xr_xprt *rx;
	int err = -ENOENT;

	mutex_lock(&xr_reg_mutex);
	if (xr_reg_lookup(net, id, false, &sx, &rx) && rx) {
		*cfg = rx->rx_config;
		err = 0;
	}
	mutex_unlock(&xr_reg_mutex);
	return err;
}

/**
 * xr_reg_exit - the registry at module unload: every transport has left
 */
void xr_reg_exit(void)
{
	WARN_ON(!xa_empty(&xr_reg));
	xa_destroy(&xr_reg);
}
