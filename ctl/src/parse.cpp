// SPDX-License-Identifier: GPL-2.0
#include "parse.hpp"

#include <arpa/inet.h>
#include <array>
#include <cstdint>
#include <net/if.h>
#include <string>
#include <sys/socket.h>

#include <linux/xrpcrdma.h>
#include <netlink/attr.h>
#include <netlink/errno.h>
#include <netlink/genl/genl.h>

#include "errors.hpp"
#include "tunables.hpp"

namespace rdmactl {

namespace {

constexpr nla_policy exact(uint16_t type, uint16_t len)
{
    return {type, len, len};
}
constexpr nla_policy u8_attr = exact(NLA_U8, sizeof(uint8_t));
constexpr nla_policy u16_attr = exact(NLA_U16, sizeof(uint16_t));
constexpr nla_policy in6_attr = exact(NLA_UNSPEC, 16);
constexpr nla_policy u32_attr = exact(NLA_U32, sizeof(uint32_t));
constexpr nla_policy u64_attr = exact(NLA_U64, sizeof(uint64_t));
// libnl checks that an NLA_STRING ends with NUL; maxlen counts the NUL.
constexpr nla_policy string_attr(uint16_t max_chars = 0)
{
    return {NLA_STRING, 1, static_cast<uint16_t>(max_chars ? max_chars + 1 : 0)};
}
constexpr nla_policy nest_attr = {NLA_NESTED, 0, 0};

// Policies and attribute tables are indexed by attribute type, up to MAX.
template <size_t Max> using Policy = std::array<nla_policy, Max + 1>;

const Policy<XRPCRDMA_A_PORT_MAX> &port_policy()
{
    static const auto policy = [] {
        Policy<XRPCRDMA_A_PORT_MAX> p{};
        p[XRPCRDMA_A_PORT_NUMBER] = u32_attr;
        p[XRPCRDMA_A_PORT_STATE] = u32_attr;
        p[XRPCRDMA_A_PORT_NETDEV] = string_attr(IFNAMSIZ - 1);
        return p;
    }();
    return policy;
}

const Policy<XRPCRDMA_A_DEVICE_MAX> &device_policy()
{
    static const auto policy = [] {
        Policy<XRPCRDMA_A_DEVICE_MAX> p{};
        p[XRPCRDMA_A_DEVICE_INDEX] = u32_attr;
        p[XRPCRDMA_A_DEVICE_NAME] = string_attr(XRPCRDMA_DEV_NAME_MAX_LEN);
        p[XRPCRDMA_A_DEVICE_NODE_GUID] = u64_attr;
        p[XRPCRDMA_A_DEVICE_PORT] = nest_attr;
        p[XRPCRDMA_A_DEVICE_USABLE] = u8_attr;
        p[XRPCRDMA_A_DEVICE_ENABLED] = u8_attr;
        return p;
    }();
    return policy;
}

const Policy<XRPCRDMA_A_LIVE_OBJECT_MAX> &live_object_policy()
{
    static const auto policy = [] {
        Policy<XRPCRDMA_A_LIVE_OBJECT_MAX> p{};
        p[XRPCRDMA_A_LIVE_OBJECT_NAME] = string_attr();
        p[XRPCRDMA_A_LIVE_OBJECT_COUNT] = u64_attr;
        return p;
    }();
    return policy;
}

const Policy<XRPCRDMA_A_MODULE_MAX> &module_policy()
{
    static const auto policy = [] {
        Policy<XRPCRDMA_A_MODULE_MAX> p{};
        p[XRPCRDMA_A_MODULE_VERSION] = string_attr();
        p[XRPCRDMA_A_MODULE_BUILD_KERNEL] = string_attr();
        p[XRPCRDMA_A_MODULE_MODE] = u32_attr;
        p[XRPCRDMA_A_MODULE_LIVE_OBJECT] = nest_attr;
        return p;
    }();
    return policy;
}

const Policy<XRPCRDMA_A_STAT_MAX> &stat_policy()
{
    static const auto policy = [] {
        Policy<XRPCRDMA_A_STAT_MAX> p{};
        p[XRPCRDMA_A_STAT_NAME] = string_attr();
        p[XRPCRDMA_A_STAT_VALUE] = u64_attr;
        return p;
    }();
    return policy;
}

const Policy<XRPCRDMA_A_STATS_MAX> &stats_policy()
{
    static const auto policy = [] {
        Policy<XRPCRDMA_A_STATS_MAX> p{};
        p[XRPCRDMA_A_STATS_STAT] = nest_attr;
        return p;
    }();
    return policy;
}

const Policy<XRPCRDMA_A_TRANSPORT_MAX> &transport_policy()
{
    static const auto policy = [] {
        Policy<XRPCRDMA_A_TRANSPORT_MAX> p{};
        p[XRPCRDMA_A_TRANSPORT_ID] = u32_attr;
        p[XRPCRDMA_A_TRANSPORT_ROLE] = u32_attr;
        p[XRPCRDMA_A_TRANSPORT_STATE] = u32_attr;
        p[XRPCRDMA_A_TRANSPORT_CLASS] = string_attr();
        p[XRPCRDMA_A_TRANSPORT_SERV] = string_attr();
        p[XRPCRDMA_A_TRANSPORT_LOCAL_ADDR4] = u32_attr;
        p[XRPCRDMA_A_TRANSPORT_LOCAL_ADDR6] = in6_attr;
        p[XRPCRDMA_A_TRANSPORT_LOCAL_PORT] = u16_attr;
        p[XRPCRDMA_A_TRANSPORT_PEER_ADDR4] = u32_attr;
        p[XRPCRDMA_A_TRANSPORT_PEER_ADDR6] = in6_attr;
        p[XRPCRDMA_A_TRANSPORT_PEER_PORT] = u16_attr;
        for (int type : {XRPCRDMA_A_TRANSPORT_CREDITS, XRPCRDMA_A_TRANSPORT_INLINE_SEND,
                         XRPCRDMA_A_TRANSPORT_INLINE_RECV, XRPCRDMA_A_TRANSPORT_PEER_INLINE_SEND,
                         XRPCRDMA_A_TRANSPORT_PEER_INLINE_RECV, XRPCRDMA_A_TRANSPORT_SQ_DEPTH,
                         XRPCRDMA_A_TRANSPORT_SQ_FREE, XRPCRDMA_A_TRANSPORT_RQ_DEPTH,
                         XRPCRDMA_A_TRANSPORT_SENDCTX_ALLOCATED, XRPCRDMA_A_TRANSPORT_SENDCTX_FREE,
                         XRPCRDMA_A_TRANSPORT_RECVCTX_ALLOCATED,
                         XRPCRDMA_A_TRANSPORT_RECVCTX_BYTES})
            p[type] = u32_attr;
        p[XRPCRDMA_A_TRANSPORT_STAT] = nest_attr;
        p[XRPCRDMA_A_TRANSPORT_REASON] = u32_attr;
        p[XRPCRDMA_A_TRANSPORT_REJECT_REASON] = u32_attr;
        return p;
    }();
    return policy;
}

const Policy<XRPCRDMA_A_WC_ERROR_MAX> &wc_error_policy()
{
    static const auto policy = [] {
        Policy<XRPCRDMA_A_WC_ERROR_MAX> p{};
        for (int type : {XRPCRDMA_A_WC_ERROR_TRANSPORT_ID, XRPCRDMA_A_WC_ERROR_QP_NUM,
                         XRPCRDMA_A_WC_ERROR_KIND, XRPCRDMA_A_WC_ERROR_STATUS,
                         XRPCRDMA_A_WC_ERROR_VENDOR_ERR, XRPCRDMA_A_WC_ERROR_SUPPRESSED})
            p[type] = u32_attr;
        p[XRPCRDMA_A_WC_ERROR_DEVICE] = string_attr(XRPCRDMA_DEV_NAME_MAX_LEN);
        p[XRPCRDMA_A_WC_ERROR_STATUS_MSG] = string_attr();
        return p;
    }();
    return policy;
}

// A stream of attributes: the payload of a message or of a nest.
struct Attrs {
    nlattr *head;
    int len;
};

Attrs message_attrs(const nlmsghdr *nlh)
{
    auto *hdr = const_cast<nlmsghdr *>(nlh);
    if (!genlmsg_valid_hdr(hdr, 0))
        throw ProtocolError("generic netlink message too short");
    const genlmsghdr *ghdr = genlmsg_hdr(hdr);
    return {genlmsg_attrdata(ghdr, 0), genlmsg_attrlen(ghdr, 0)};
}

Attrs nest_attrs(const nlattr *nest)
{
    return {static_cast<nlattr *>(nla_data(nest)), nla_len(nest)};
}

// Fails unless the attributes fill the stream exactly: libnl stops quietly at
// the first one that does not fit. The last one may lack its padding.
void check_complete(Attrs attrs, const char *what)
{
    const nlattr *attr;
    int rem;
    nla_for_each_attr(attr, attrs.head, attrs.len, rem) {}
    if (rem > 0)
        throw ProtocolError(std::string(what) + ": " + std::to_string(rem) +
                            " trailing bytes do not form an attribute");
}

// Indexes and validates a stream of attributes (the last one of a type wins;
// use for_each_of() for multi-attributes).
template <size_t N>
std::array<nlattr *, N> parse_attrs(Attrs attrs, const std::array<nla_policy, N> &policy,
                                    const char *what)
{
    std::array<nlattr *, N> tb{};
    int rc = nla_parse(tb.data(), N - 1, attrs.head, attrs.len, policy.data());
    if (rc < 0)
        throw ProtocolError(std::string(what) + ": invalid attribute (" + nl_geterror(rc) + ")");
    check_complete(attrs, what);
    return tb;
}

template <typename F> void for_each_of(Attrs attrs, int type, F &&fn)
{
    const nlattr *attr;
    int rem;
    nla_for_each_attr(attr, attrs.head, attrs.len, rem)
    {
        if (nla_type(attr) == type)
            fn(attr);
    }
}

// A mandatory attribute; what describes its absence.
const nlattr *require(const nlattr *attr, const char *what)
{
    if (!attr)
        throw ProtocolError(what);
    return attr;
}

Port parse_port(const nlattr *nest)
{
    auto tb = parse_attrs(nest_attrs(nest), port_policy(), "port");
    Port port;
    port.number =
        nla_get_u32(require(tb[XRPCRDMA_A_PORT_NUMBER], "port: missing attribute number"));
    port.state = nla_get_u32(require(tb[XRPCRDMA_A_PORT_STATE], "port: missing attribute state"));
    if (tb[XRPCRDMA_A_PORT_NETDEV])
        port.netdev = nla_get_string(tb[XRPCRDMA_A_PORT_NETDEV]);
    return port;
}

LiveObject parse_live_object(const nlattr *nest)
{
    auto tb = parse_attrs(nest_attrs(nest), live_object_policy(), "live-object");
    LiveObject obj;
    obj.name = nla_get_string(
        require(tb[XRPCRDMA_A_LIVE_OBJECT_NAME], "live-object: missing attribute name"));
    obj.count = nla_get_u64(
        require(tb[XRPCRDMA_A_LIVE_OBJECT_COUNT], "live-object: missing attribute count"));
    return obj;
}

Counter parse_stat(const nlattr *nest)
{
    auto tb = parse_attrs(nest_attrs(nest), stat_policy(), "stat");
    Counter stat;
    stat.name = nla_get_string(require(tb[XRPCRDMA_A_STAT_NAME], "stat: missing attribute name"));
    stat.count = nla_get_u64(require(tb[XRPCRDMA_A_STAT_VALUE], "stat: missing attribute value"));
    return stat;
}

std::string format_addr(int family, const void *addr)
{
    char buf[INET6_ADDRSTRLEN];
    if (!inet_ntop(family, addr, buf, sizeof(buf)))
        throw ProtocolError("unprintable address");
    return buf;
}

// One end: exactly one of the addr4/addr6 attributes, and the port.
// An address from its IPv4 or IPv6 attribute (exactly one of them);
// WHAT names the end in errors. The port is the caller's.
SockAddr parse_addr(const nlattr *a4, const nlattr *a6, const std::string &what)
{
    if (!a4 == !a6)
        throw ProtocolError(what + (a4 ? " has both an IPv4 and an IPv6" : " has no") +
                            " address");
    SockAddr end;
    if (a4) {
        end.family = AF_INET;
        uint32_t a = nla_get_u32(a4); // network byte order
        end.addr = format_addr(AF_INET, &a);
    } else {
        end.family = AF_INET6;
        end.addr = format_addr(AF_INET6, nla_data(a6));
    }
    return end;
}

template <size_t N>
SockAddr parse_end(const std::array<nlattr *, N> &tb, int addr4, int addr6, int port,
                   const std::string &what)
{
    SockAddr end = parse_addr(tb[addr4], tb[addr6], "transport: " + what);
    end.port = ntohs(
        nla_get_u16(require(tb[port], ("transport: missing attribute " + what + "-port").c_str())));
    return end;
}

constexpr int connection_attrs[] = {
    XRPCRDMA_A_TRANSPORT_PEER_ADDR4,
    XRPCRDMA_A_TRANSPORT_PEER_ADDR6,
    XRPCRDMA_A_TRANSPORT_PEER_PORT,
    XRPCRDMA_A_TRANSPORT_CREDITS,
    XRPCRDMA_A_TRANSPORT_INLINE_SEND,
    XRPCRDMA_A_TRANSPORT_INLINE_RECV,
    XRPCRDMA_A_TRANSPORT_PEER_INLINE_SEND,
    XRPCRDMA_A_TRANSPORT_PEER_INLINE_RECV,
    XRPCRDMA_A_TRANSPORT_SQ_DEPTH,
    XRPCRDMA_A_TRANSPORT_SQ_FREE,
    XRPCRDMA_A_TRANSPORT_RQ_DEPTH,
    XRPCRDMA_A_TRANSPORT_SENDCTX_ALLOCATED,
    XRPCRDMA_A_TRANSPORT_SENDCTX_FREE,
    XRPCRDMA_A_TRANSPORT_RECVCTX_ALLOCATED,
    XRPCRDMA_A_TRANSPORT_RECVCTX_BYTES,
    XRPCRDMA_A_TRANSPORT_STAT,
};

template <size_t N> uint32_t conn_u32(const std::array<nlattr *, N> &tb, int type, const char *name)
{
    return nla_get_u32(
        require(tb[type], (std::string("transport: missing attribute ") + name).c_str()));
}

uint8_t genl_cmd(const nlmsghdr *nlh)
{
    return genlmsg_hdr(const_cast<nlmsghdr *>(nlh))->cmd;
}

// What every transport has: id, role, state, class, and for a server the
// service and local end (a client has its local end only while connected).
template <size_t N> Transport parse_transport_base(const std::array<nlattr *, N> &tb)
{
    Transport t;
    t.id = nla_get_u32(require(tb[XRPCRDMA_A_TRANSPORT_ID], "transport: missing attribute id"));
    t.role =
        nla_get_u32(require(tb[XRPCRDMA_A_TRANSPORT_ROLE], "transport: missing attribute role"));
    t.state =
        nla_get_u32(require(tb[XRPCRDMA_A_TRANSPORT_STATE], "transport: missing attribute state"));
    t.cls = nla_get_string(
        require(tb[XRPCRDMA_A_TRANSPORT_CLASS], "transport: missing attribute class"));
    bool client = t.role == XRPCRDMA_TRANSPORT_ROLE_CLIENT;
    if (!client || tb[XRPCRDMA_A_TRANSPORT_SERV])
        t.serv = nla_get_string(
            require(tb[XRPCRDMA_A_TRANSPORT_SERV], "transport: missing attribute serv"));
    bool local = tb[XRPCRDMA_A_TRANSPORT_LOCAL_ADDR4] || tb[XRPCRDMA_A_TRANSPORT_LOCAL_ADDR6] ||
                 tb[XRPCRDMA_A_TRANSPORT_LOCAL_PORT];
    if (!client || local)
        t.local = parse_end(tb, XRPCRDMA_A_TRANSPORT_LOCAL_ADDR4, XRPCRDMA_A_TRANSPORT_LOCAL_ADDR6,
                            XRPCRDMA_A_TRANSPORT_LOCAL_PORT, "local");
    return t;
}

template <size_t N> void parse_negotiated(const std::array<nlattr *, N> &tb, ConnectionInfo &c)
{
    c.credits = conn_u32(tb, XRPCRDMA_A_TRANSPORT_CREDITS, "credits");
    c.inline_send = conn_u32(tb, XRPCRDMA_A_TRANSPORT_INLINE_SEND, "inline-send");
    c.inline_recv = conn_u32(tb, XRPCRDMA_A_TRANSPORT_INLINE_RECV, "inline-recv");
    c.peer_inline_send = conn_u32(tb, XRPCRDMA_A_TRANSPORT_PEER_INLINE_SEND, "peer-inline-send");
    c.peer_inline_recv = conn_u32(tb, XRPCRDMA_A_TRANSPORT_PEER_INLINE_RECV, "peer-inline-recv");
}

// listener-add/-del, transport-connect/-disconnect notifications.
void parse_transport_event(const nlmsghdr *nlh, Event &ev)
{
    Attrs attrs = message_attrs(nlh);
    auto tb = parse_attrs(attrs, transport_policy(), "transport");
    ev.transport = parse_transport_base(tb);

    if (ev.type == EventType::ListenerDel || ev.type == EventType::TransportDisconnect)
        ev.reason = conn_u32(tb, XRPCRDMA_A_TRANSPORT_REASON, "reason");
    if (ev.type == EventType::ConnectReject) {
        // The listener, the client that asked, and why it was refused.
        ConnectionInfo c;
        c.peer = parse_end(tb, XRPCRDMA_A_TRANSPORT_PEER_ADDR4, XRPCRDMA_A_TRANSPORT_PEER_ADDR6,
                           XRPCRDMA_A_TRANSPORT_PEER_PORT, "peer");
        ev.transport.conn = std::move(c);
        ev.reject_reason = conn_u32(tb, XRPCRDMA_A_TRANSPORT_REJECT_REASON, "reject-reason");
        return;
    }
    if (ev.type != EventType::TransportConnect && ev.type != EventType::TransportDisconnect)
        return;

    ConnectionInfo c;
    c.peer = parse_end(tb, XRPCRDMA_A_TRANSPORT_PEER_ADDR4, XRPCRDMA_A_TRANSPORT_PEER_ADDR6,
                       XRPCRDMA_A_TRANSPORT_PEER_PORT, "peer");
    if (ev.type == EventType::TransportConnect) {
        parse_negotiated(tb, c);
        ev.negotiated = true;
    } else {
        for_each_of(attrs, XRPCRDMA_A_TRANSPORT_STAT,
                    [&](const nlattr *nest) { c.stats.push_back(parse_stat(nest)); });
    }
    ev.transport.conn = std::move(c);
}

template <size_t N> uint32_t wc_u32(const std::array<nlattr *, N> &tb, int type, const char *name)
{
    return nla_get_u32(
        require(tb[type], (std::string("completion-error: missing attribute ") + name).c_str()));
}

CompletionError parse_completion_error(const nlmsghdr *nlh)
{
    auto tb = parse_attrs(message_attrs(nlh), wc_error_policy(), "completion-error");
    CompletionError wc;
    if (tb[XRPCRDMA_A_WC_ERROR_TRANSPORT_ID])
        wc.transport_id = nla_get_u32(tb[XRPCRDMA_A_WC_ERROR_TRANSPORT_ID]);
    wc.device = nla_get_string(
        require(tb[XRPCRDMA_A_WC_ERROR_DEVICE], "completion-error: missing attribute device"));
    wc.qp_num = wc_u32(tb, XRPCRDMA_A_WC_ERROR_QP_NUM, "qp-num");
    wc.kind = wc_u32(tb, XRPCRDMA_A_WC_ERROR_KIND, "kind");
    wc.status = wc_u32(tb, XRPCRDMA_A_WC_ERROR_STATUS, "status");
    if (tb[XRPCRDMA_A_WC_ERROR_STATUS_MSG])
        wc.status_msg = nla_get_string(tb[XRPCRDMA_A_WC_ERROR_STATUS_MSG]);
    if (tb[XRPCRDMA_A_WC_ERROR_VENDOR_ERR])
        wc.vendor_err = nla_get_u32(tb[XRPCRDMA_A_WC_ERROR_VENDOR_ERR]);
    if (tb[XRPCRDMA_A_WC_ERROR_SUPPRESSED])
        wc.suppressed = nla_get_u32(tb[XRPCRDMA_A_WC_ERROR_SUPPRESSED]);
    return wc;
}

} // namespace

Device parse_device(const nlmsghdr *nlh)
{
    Attrs attrs = message_attrs(nlh);
    auto tb = parse_attrs(attrs, device_policy(), "device");

    Device dev;
    dev.index =
        nla_get_u32(require(tb[XRPCRDMA_A_DEVICE_INDEX], "device: missing attribute index"));
    dev.name =
        nla_get_string(require(tb[XRPCRDMA_A_DEVICE_NAME], "device: missing attribute name"));
    dev.node_guid = nla_get_u64(
        require(tb[XRPCRDMA_A_DEVICE_NODE_GUID], "device: missing attribute node-guid"));
    dev.usable =
        nla_get_u8(require(tb[XRPCRDMA_A_DEVICE_USABLE], "device: missing attribute usable")) != 0;
    dev.enabled = nla_get_u8(require(tb[XRPCRDMA_A_DEVICE_ENABLED],
                                     "device: missing attribute enabled")) != 0;
    for_each_of(attrs, XRPCRDMA_A_DEVICE_PORT,
                [&](const nlattr *nest) { dev.ports.push_back(parse_port(nest)); });
    return dev;
}

ModuleInfo parse_module(const nlmsghdr *nlh)
{
    Attrs attrs = message_attrs(nlh);
    auto tb = parse_attrs(attrs, module_policy(), "module");

    ModuleInfo info;
    info.version =
        nla_get_string(require(tb[XRPCRDMA_A_MODULE_VERSION], "module: missing attribute version"));
    info.build_kernel = nla_get_string(
        require(tb[XRPCRDMA_A_MODULE_BUILD_KERNEL], "module: missing attribute build-kernel"));
    info.mode = nla_get_u32(require(tb[XRPCRDMA_A_MODULE_MODE], "module: missing attribute mode"));
    for_each_of(attrs, XRPCRDMA_A_MODULE_LIVE_OBJECT,
                [&](const nlattr *nest) { info.live_objects.push_back(parse_live_object(nest)); });
    return info;
}

Transport parse_transport(const nlmsghdr *nlh)
{
    Attrs attrs = message_attrs(nlh);
    auto tb = parse_attrs(attrs, transport_policy(), "transport");

    Transport t = parse_transport_base(tb);

    // transport-get shows everything of a connection; otherwise the
    // connection's attributes are all there or none is.
    bool any = false;
    for (int type : connection_attrs)
        any = any || tb[type];
    bool client = t.role == XRPCRDMA_TRANSPORT_ROLE_CLIENT;
    if (genl_cmd(nlh) == XRPCRDMA_CMD_TRANSPORT_GET && !any &&
        (t.role == XRPCRDMA_TRANSPORT_ROLE_SERVER_CONNECTION || client))
        throw ProtocolError("transport: a connection without its connection attributes");
    if (!any)
        return t;
    if (t.role == XRPCRDMA_TRANSPORT_ROLE_SERVER_LISTENER)
        throw ProtocolError("transport: a listener with connection attributes");

    ConnectionInfo c;
    c.peer = parse_end(tb, XRPCRDMA_A_TRANSPORT_PEER_ADDR4, XRPCRDMA_A_TRANSPORT_PEER_ADDR6,
                       XRPCRDMA_A_TRANSPORT_PEER_PORT, "peer");
    // A client without a connection: its server and its counters only.
    if (client && !t.local.family) {
        if (tb[XRPCRDMA_A_TRANSPORT_CREDITS] || tb[XRPCRDMA_A_TRANSPORT_SQ_DEPTH])
            throw ProtocolError("transport: a client without a connection has its numbers");
        c.numbers = false;
        require(tb[XRPCRDMA_A_TRANSPORT_STAT], "transport: missing attribute stat");
        for_each_of(attrs, XRPCRDMA_A_TRANSPORT_STAT,
                    [&](const nlattr *nest) { c.stats.push_back(parse_stat(nest)); });
        t.conn = std::move(c);
        return t;
    }
    parse_negotiated(tb, c);
    c.sq_depth = conn_u32(tb, XRPCRDMA_A_TRANSPORT_SQ_DEPTH, "sq-depth");
    c.sq_free = conn_u32(tb, XRPCRDMA_A_TRANSPORT_SQ_FREE, "sq-free");
    c.rq_depth = conn_u32(tb, XRPCRDMA_A_TRANSPORT_RQ_DEPTH, "rq-depth");
    c.sendctx_allocated = conn_u32(tb, XRPCRDMA_A_TRANSPORT_SENDCTX_ALLOCATED, "sendctx-allocated");
    c.sendctx_free = conn_u32(tb, XRPCRDMA_A_TRANSPORT_SENDCTX_FREE, "sendctx-free");
    c.recvctx_allocated = conn_u32(tb, XRPCRDMA_A_TRANSPORT_RECVCTX_ALLOCATED, "recvctx-allocated");
    c.recvctx_bytes = conn_u32(tb, XRPCRDMA_A_TRANSPORT_RECVCTX_BYTES, "recvctx-bytes");
    require(tb[XRPCRDMA_A_TRANSPORT_STAT], "transport: missing attribute stat");
    for_each_of(attrs, XRPCRDMA_A_TRANSPORT_STAT,
                [&](const nlattr *nest) { c.stats.push_back(parse_stat(nest)); });
    t.conn = std::move(c);
    return t;
}

Stats parse_stats(const nlmsghdr *nlh)
{
    Attrs attrs = message_attrs(nlh);
    parse_attrs(attrs, stats_policy(), "stats");

    Stats stats;
    for_each_of(attrs, XRPCRDMA_A_STATS_STAT,
                [&](const nlattr *nest) { stats.server.push_back(parse_stat(nest)); });
    if (stats.server.empty())
        throw ProtocolError("stats: no counters");
    return stats;
}

namespace {

const Policy<XRPCRDMA_A_FAULT_MAX> &fault_policy()
{
    static const auto policy = [] {
        Policy<XRPCRDMA_A_FAULT_MAX> p{};
        for (int type :
             {XRPCRDMA_A_FAULT_POINT, XRPCRDMA_A_FAULT_TRIGGER, XRPCRDMA_A_FAULT_N,
              XRPCRDMA_A_FAULT_PROBABILITY, XRPCRDMA_A_FAULT_TIMES, XRPCRDMA_A_FAULT_ERRNO,
              XRPCRDMA_A_FAULT_DELAY_MS, XRPCRDMA_A_FAULT_TRANSPORT_ID})
            p[type] = u32_attr;
        p[XRPCRDMA_A_FAULT_HITS] = u64_attr;
        p[XRPCRDMA_A_FAULT_FIRED] = u64_attr;
        return p;
    }();
    return policy;
}

} // namespace

Fault parse_fault(const nlmsghdr *nlh)
{
    auto tb = parse_attrs(message_attrs(nlh), fault_policy(), "fault");
    auto opt = [&](int type) -> std::optional<uint32_t> {
        return tb[type] ? std::optional<uint32_t>(nla_get_u32(tb[type])) : std::nullopt;
    };
    Fault f;
    f.point = nla_get_u32(require(tb[XRPCRDMA_A_FAULT_POINT], "fault: missing attribute point"));
    f.trigger =
        nla_get_u32(require(tb[XRPCRDMA_A_FAULT_TRIGGER], "fault: missing attribute trigger"));
    f.n = opt(XRPCRDMA_A_FAULT_N);
    f.probability = opt(XRPCRDMA_A_FAULT_PROBABILITY);
    f.times = opt(XRPCRDMA_A_FAULT_TIMES);
    f.error = opt(XRPCRDMA_A_FAULT_ERRNO);
    f.delay_ms = opt(XRPCRDMA_A_FAULT_DELAY_MS);
    f.transport_id = opt(XRPCRDMA_A_FAULT_TRANSPORT_ID);
    f.hits = nla_get_u64(require(tb[XRPCRDMA_A_FAULT_HITS], "fault: missing attribute hits"));
    f.fired = nla_get_u64(require(tb[XRPCRDMA_A_FAULT_FIRED], "fault: missing attribute fired"));
    return f;
}

Config parse_config(const nlmsghdr *nlh)
{
    static const auto policy = [] {
        Policy<XRPCRDMA_A_CONFIG_MAX> p{};
        p[XRPCRDMA_A_CONFIG_TRANSPORT_ID] = u32_attr;
        for (const Tunable &t : tunables())
            p[t.attr] = u32_attr;
        return p;
    }();
    auto tb = parse_attrs(message_attrs(nlh), policy, "config");

    Config cfg;
    if (tb[XRPCRDMA_A_CONFIG_TRANSPORT_ID])
        cfg.transport_id = nla_get_u32(tb[XRPCRDMA_A_CONFIG_TRANSPORT_ID]);
    for (const Tunable &t : tunables()) {
        if (tb[t.attr])
            cfg.values.push_back({t.name, nla_get_u32(tb[t.attr])});
    }
    if (cfg.values.empty())
        throw ProtocolError("config: no tunables");
    return cfg;
}

namespace {

const Policy<XRPCRDMA_A_BENCH_MAX> &bench_policy()
{
    static const auto policy = [] {
        Policy<XRPCRDMA_A_BENCH_MAX> p{};
        for (int type : {XRPCRDMA_A_BENCH_ID, XRPCRDMA_A_BENCH_TRANSPORT, XRPCRDMA_A_BENCH_ADDR4,
                         XRPCRDMA_A_BENCH_PROGRAM, XRPCRDMA_A_BENCH_VERSION, XRPCRDMA_A_BENCH_COUNT,
                         XRPCRDMA_A_BENCH_CONCURRENCY, XRPCRDMA_A_BENCH_DONE,
                         XRPCRDMA_A_BENCH_ERRORS, XRPCRDMA_A_BENCH_STATUS, XRPCRDMA_A_BENCH_OP,
                         XRPCRDMA_A_BENCH_SIZE, XRPCRDMA_A_BENCH_QPS,
                         XRPCRDMA_A_BENCH_REPLY_SIZE})
            p[type] = u32_attr;
        p[XRPCRDMA_A_BENCH_ADDR6] = in6_attr;
        p[XRPCRDMA_A_BENCH_PORT] = u16_attr;
        p[XRPCRDMA_A_BENCH_RUNNING] = u8_attr;
        for (int type : {XRPCRDMA_A_BENCH_ELAPSED_NS, XRPCRDMA_A_BENCH_OPS_PER_SEC,
                         XRPCRDMA_A_BENCH_LAT_P50_NS, XRPCRDMA_A_BENCH_LAT_P99_NS,
                         XRPCRDMA_A_BENCH_LAT_P999_NS, XRPCRDMA_A_BENCH_LAT_MAX_NS,
                         XRPCRDMA_A_BENCH_BYTES_PER_SEC})
            p[type] = u64_attr;
        return p;
    }();
    return policy;
}

template <size_t N>
uint32_t bench_u32(const std::array<nlattr *, N> &tb, int type, const char *name)
{
    return nla_get_u32(
        require(tb[type], (std::string("bench: missing attribute ") + name).c_str()));
}

template <size_t N>
uint64_t bench_u64(const std::array<nlattr *, N> &tb, int type, const char *name)
{
    return nla_get_u64(
        require(tb[type], (std::string("bench: missing attribute ") + name).c_str()));
}

// The server: addr4 or addr6, and the port (in host order, as bench-run
// takes it; transports' ports are big-endian).
template <size_t N> SockAddr parse_bench_server(const std::array<nlattr *, N> &tb)
{
    SockAddr end =
        parse_addr(tb[XRPCRDMA_A_BENCH_ADDR4], tb[XRPCRDMA_A_BENCH_ADDR6], "bench: the server");
    end.port = nla_get_u16(require(tb[XRPCRDMA_A_BENCH_PORT], "bench: missing attribute port"));
    return end;
}

// id, count, done and errors: what every bench message has.
template <size_t N> Bench parse_bench_progress(const std::array<nlattr *, N> &tb)
{
    Bench b;
    b.id = bench_u32(tb, XRPCRDMA_A_BENCH_ID, "id");
    b.count = bench_u32(tb, XRPCRDMA_A_BENCH_COUNT, "count");
    b.done = bench_u32(tb, XRPCRDMA_A_BENCH_DONE, "done");
    b.errors = bench_u32(tb, XRPCRDMA_A_BENCH_ERRORS, "errors");
    b.running = true;
    return b;
}

// rdma-write and rdma-read: no RPC; size, qps and bytes-per-sec.
bool rdma_op(uint32_t op)
{
    return op == XRPCRDMA_BENCH_OP_RDMA_WRITE || op == XRPCRDMA_BENCH_OP_RDMA_READ;
}

// What the benchmark measures, and the settings that go with the RDMA
// ops. A module from before there were ops sends none: rpc-null.
template <size_t N> void parse_bench_op(const std::array<nlattr *, N> &tb, Bench &b)
{
    b.op = tb[XRPCRDMA_A_BENCH_OP] ? nla_get_u32(tb[XRPCRDMA_A_BENCH_OP])
                                   : uint32_t{XRPCRDMA_BENCH_OP_RPC_NULL};
    // Sent only when not 0.
    if (tb[XRPCRDMA_A_BENCH_REPLY_SIZE])
        b.reply_size = nla_get_u32(tb[XRPCRDMA_A_BENCH_REPLY_SIZE]);
    if (!rdma_op(b.op))
        return;
    b.size = bench_u32(tb, XRPCRDMA_A_BENCH_SIZE, "size");
    b.qps = bench_u32(tb, XRPCRDMA_A_BENCH_QPS, "qps");
}

} // namespace

Bench parse_bench(const nlmsghdr *nlh)
{
    auto tb = parse_attrs(message_attrs(nlh), bench_policy(), "bench");
    Bench b = parse_bench_progress(tb);
    parse_bench_op(tb, b);
    b.transport = bench_u32(tb, XRPCRDMA_A_BENCH_TRANSPORT, "transport");
    b.server = parse_bench_server(tb);
    b.program = bench_u32(tb, XRPCRDMA_A_BENCH_PROGRAM, "program");
    b.version = bench_u32(tb, XRPCRDMA_A_BENCH_VERSION, "version");
    b.concurrency = bench_u32(tb, XRPCRDMA_A_BENCH_CONCURRENCY, "concurrency");
    b.running =
        nla_get_u8(require(tb[XRPCRDMA_A_BENCH_RUNNING], "bench: missing attribute running")) != 0;
    if (b.running)
        return b;
    BenchResult r;
    r.status = static_cast<int32_t>(bench_u32(tb, XRPCRDMA_A_BENCH_STATUS, "status"));
    r.elapsed_ns = bench_u64(tb, XRPCRDMA_A_BENCH_ELAPSED_NS, "elapsed-ns");
    r.ops_per_sec = bench_u64(tb, XRPCRDMA_A_BENCH_OPS_PER_SEC, "ops-per-sec");
    r.lat_p50_ns = bench_u64(tb, XRPCRDMA_A_BENCH_LAT_P50_NS, "lat-p50-ns");
    r.lat_p99_ns = bench_u64(tb, XRPCRDMA_A_BENCH_LAT_P99_NS, "lat-p99-ns");
    r.lat_p999_ns = bench_u64(tb, XRPCRDMA_A_BENCH_LAT_P999_NS, "lat-p999-ns");
    r.lat_max_ns = bench_u64(tb, XRPCRDMA_A_BENCH_LAT_MAX_NS, "lat-max-ns");
    if (rdma_op(b.op))
        r.bytes_per_sec = bench_u64(tb, XRPCRDMA_A_BENCH_BYTES_PER_SEC, "bytes-per-sec");
    b.result = r;
    return b;
}

uint32_t parse_bench_id(const nlmsghdr *nlh)
{
    auto tb = parse_attrs(message_attrs(nlh), bench_policy(), "bench");
    return bench_u32(tb, XRPCRDMA_A_BENCH_ID, "id");
}

Event parse_event(const nlmsghdr *nlh)
{
    Event ev;
    message_attrs(nlh); // the header is there
    ev.cmd = genl_cmd(nlh);
    switch (ev.cmd) {
    case XRPCRDMA_CMD_DEVICE_ADD_NTF:
    case XRPCRDMA_CMD_DEVICE_DEL_NTF:
        ev.type =
            ev.cmd == XRPCRDMA_CMD_DEVICE_ADD_NTF ? EventType::DeviceAdd : EventType::DeviceDel;
        ev.device = parse_device(nlh);
        break;
    case XRPCRDMA_CMD_LISTENER_ADD_NTF:
        ev.type = EventType::ListenerAdd;
        parse_transport_event(nlh, ev);
        break;
    case XRPCRDMA_CMD_LISTENER_DEL_NTF:
        ev.type = EventType::ListenerDel;
        parse_transport_event(nlh, ev);
        break;
    case XRPCRDMA_CMD_TRANSPORT_CONNECT_NTF:
        ev.type = EventType::TransportConnect;
        parse_transport_event(nlh, ev);
        break;
    case XRPCRDMA_CMD_TRANSPORT_DISCONNECT_NTF:
        ev.type = EventType::TransportDisconnect;
        parse_transport_event(nlh, ev);
        break;
    case XRPCRDMA_CMD_COMPLETION_ERROR_NTF:
        ev.type = EventType::CompletionError;
        ev.wc = parse_completion_error(nlh);
        break;
    case XRPCRDMA_CMD_BENCH_PROGRESS_NTF:
        ev.type = EventType::BenchProgress;
        ev.bench = parse_bench_progress(parse_attrs(message_attrs(nlh), bench_policy(), "bench"));
        break;
    case XRPCRDMA_CMD_BENCH_DONE_NTF:
        ev.type = EventType::BenchDone;
        ev.bench = parse_bench(nlh);
        break;
    case XRPCRDMA_CMD_CONNECT_REJECT_NTF:
        ev.type = EventType::ConnectReject;
        parse_transport_event(nlh, ev);
        break;
    default:
        ev.type = EventType::Unknown;
        break;
    }
    return ev;
}

} // namespace rdmactl
