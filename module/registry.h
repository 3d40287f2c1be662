/* SPDX-License-Identifier: GPL-2.0 */
/*
 * registry.h - the transports of both roles by number (registry.c), for
 * netlink's commands and events.
 */
#ifndef _XRPCRDMA_REGISTRY_H
#define _XRPCRDMA_REGISTRY_H

#include <linux/types.h>

struct net;
struct xr_svc_xprt;
struct xr_xprt;

void xr_reg_lock(void);
void xr_reg_unlock(void);
void xr_reg_assert_held(void);
int xr_reg_add_svc(struct xr_svc_xprt *sx, u32 *id);
void xr_reg_del_svc(u32 id);
int xr_reg_add_client(struct xr_xprt *rx);
void xr_reg_del_client(u32 id);
struct xr_svc_xprt *xr_reg_find_svc(struct net *net, u32 id);
/* What xr_reg_walk_svc() does with each server transport. */
typedef void (*xr_reg_svc_fn)(struct xr_svc_xprt *sx, void *arg);
void xr_reg_walk_svc(xr_reg_svc_fn fn, void *arg);
void xr_reg_exit(void);

#endif /* _XRPCRDMA_REGISTRY_H */
