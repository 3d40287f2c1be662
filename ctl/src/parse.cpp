// SPDX-License-Identifier: GPL-2.0
#include "parse.hpp"

#include <array>
#include <cstdint>
#include <net/if.h>
#include <string>

#include <linux/xrpcrdma.h>
#include <netlink/attr.h>
#include <netlink/errno.h>
#include <netlink/genl/genl.h>

#include "errors.hpp"

namespace rdmactl {

namespace {

constexpr nla_policy exact(uint16_t type, uint16_t len)
{
    return {type, len, len};
}
constexpr nla_policy u8_attr = exact(NLA_U8, sizeof(uint8_t));
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

} // namespace rdmactl
