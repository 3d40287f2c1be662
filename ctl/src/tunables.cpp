// SPDX-License-Identifier: GPL-2.0
#include "tunables.hpp"

#include <linux/xrpcrdma.h>

namespace rdmactl {

#define TUNABLE(text, ID, unit)                                                               \
    {                                                                                         \
        text, XRPCRDMA_A_CONFIG_##ID, XRPCRDMA_CONFIG_##ID##_MIN, XRPCRDMA_CONFIG_##ID##_MAX, \
            XRPCRDMA_CONFIG_##ID##_DEFAULT, unit                                              \
    }

const std::vector<Tunable> &tunables()
{
    static const std::vector<Tunable> list = {
        TUNABLE("credits", CREDITS, "requests"),
        TUNABLE("client-credits", CLIENT_CREDITS, "requests"),
        TUNABLE("inline-send", INLINE_SEND, "bytes"),
        TUNABLE("inline-recv", INLINE_RECV, "bytes"),
        TUNABLE("sq-depth", SQ_DEPTH, "work requests"),
        TUNABLE("rq-depth", RQ_DEPTH, "work requests"),
        TUNABLE("sendctx-max", SENDCTX_MAX, "contexts"),
        TUNABLE("max-frwr-segments", MAX_FRWR_SEGMENTS, "pages"),
        TUNABLE("connect-timeout", CONNECT_TIMEOUT, "ms"),
        TUNABLE("reconnect-min", RECONNECT_MIN, "ms"),
        TUNABLE("reconnect-max", RECONNECT_MAX, "ms"),
        TUNABLE("idle-timeout", IDLE_TIMEOUT, "ms"),
        TUNABLE("signal-interval", SIGNAL_INTERVAL, "sends"),
        TUNABLE("send-timeout", SEND_TIMEOUT, "ms"),
    };
    return list;
}

#undef TUNABLE

const Tunable *find_tunable(const std::string &name)
{
    for (const Tunable &t : tunables()) {
        if (name == t.name)
            return &t;
    }
    return nullptr;
}

const Tunable *find_tunable(uint16_t attr)
{
    for (const Tunable &t : tunables()) {
        if (attr == t.attr)
            return &t;
    }
    return nullptr;
}

} // namespace rdmactl
