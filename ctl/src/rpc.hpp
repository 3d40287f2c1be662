// SPDX-License-Identifier: GPL-2.0
// The ONC RPC messages `rdmactl ping` exchanges (RFC 5531): a NULL call
// with AUTH_NONE, and the parsing of any reply, which is hostile input.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace rdmactl::rpc {

constexpr uint32_t rpc_version = 2;
constexpr uint32_t msg_call = 0;
constexpr uint32_t msg_reply = 1;

// A call to procedure 0 of program/version with AUTH_NONE credential and
// verifier: ten XDR words, 40 bytes, xid first.
std::vector<uint8_t> encode_null_call(uint32_t xid, uint32_t program, uint32_t version);

// What a reply says. Fields beyond `form` are valid as the form says.
struct Reply {
    enum class Form {
        Malformed, // not a well-formed reply: see problem
        Accepted,  // MSG_ACCEPTED: accept_stat (low/high for PROG_MISMATCH)
        Denied,    // MSG_DENIED: reject_stat (low/high for RPC_MISMATCH, auth_stat)
    };
    Form form = Form::Malformed;
    bool has_xid = false; // the first word was there
    uint32_t xid = 0;
    uint32_t accept_stat = 0; // 0 SUCCESS .. 5 SYSTEM_ERR
    uint32_t reject_stat = 0; // 0 RPC_MISMATCH, 1 AUTH_ERROR
    uint32_t auth_stat = 0;
    uint32_t low = 0, high = 0;
    std::string problem; // Malformed only

    bool success() const { return form == Form::Accepted && accept_stat == 0; }
    // "SUCCESS", "PROG_MISMATCH 2-4", "denied RPC_MISMATCH 2-2",
    // "denied AUTH_ERROR 1", "malformed: ..."
    std::string describe() const;
};

// Parses an RPC reply of len bytes (any alignment). Never reads past len.
// A reply to a NULL call carries no results, but bytes after the
// accept_stat are not an error (results of other procedures).
Reply parse_reply(const uint8_t *data, size_t len);

} // namespace rdmactl::rpc
