// SPDX-License-Identifier: GPL-2.0
// xr-hostile-server: an RPC-over-RDMA version 1 responder on librdmacm
// that answers RPC NULL calls, and every Nth call the way its script says
// a broken or hostile server would (ctl/src/hostile_server.hpp lists the
// scripts). The client transport's selftests drive the module's RPC
// client at it (`rdmactl bench run ADDR port PORT transport rdma`).
//
//   xr-hostile-server --script NAME [--every N] [--credits N]
//                     [--gap-ms MS] [--ready FILE] ADDR PORT
//
// --gap-ms MS posts each message of a turn after the first MS
// milliseconds after the one before it (0: all at once), so the
// requester has handled the first before the next arrives.
// It accepts any number of connections, one after another or at once,
// and runs until SIGINT or SIGTERM; then it prints what it did as one
// JSON object (connections, calls, hostile turns, messages sent,
// disconnects it made, Send and Receive errors) and exits 0. Exit status
// 1: it could not listen; 2: a usage error.

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <fcntl.h>
#include <netdb.h>
#include <poll.h>

#include <CLI/CLI.hpp>
#include <infiniband/verbs.h>
#include <nlohmann/json.hpp>
#include <rdma/rdma_cma.h>
#include <rdma/rdma_verbs.h>

#include "hostile_server.hpp"
#include "rpcrdma_msg.hpp"

using namespace rdmactl;
using namespace rdmactl::hostile;

namespace {

constexpr uint32_t recv_depth = 128;       // Receives kept posted per connection
constexpr uint32_t send_depth = 256;       // Sends in flight at most
constexpr uint32_t inline_size = 4096;     // what we advertise both ways
constexpr uint32_t send_slot_size = 32768; // room for an Oversize message
constexpr uint64_t send_tag = uint64_t(1) << 32;

using Clock = std::chrono::steady_clock;

volatile sig_atomic_t stop_asked;

void on_stop(int)
{
    stop_asked = 1;
}

std::runtime_error sys_error(const std::string &what)
{
    return std::runtime_error(what + ": " + std::strerror(errno));
}

// The event loop only reads a channel that poll() says is readable; non-
// blocking, a spurious wake-up cannot stall it.
void make_nonblocking(int fd)
{
    int flags = fcntl(fd, F_GETFL);

    if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0)
        throw sys_error("O_NONBLOCK");
}

struct Counters {
    uint64_t connections = 0, calls = 0, hostile = 0, messages = 0, writes = 0;
    uint64_t disconnects = 0, send_errors = 0, recv_errors = 0, unparsed = 0;
};

struct Options {
    Script script = Script::Good;
    uint64_t every = 1;
    uint32_t credits = 0;
    uint32_t gap_ms = 0;
    std::string ready;
    std::string addr;
    std::string port;
};

// Page-aligned memory, registered on a connection's protection domain.
struct Buffers {
    uint8_t *base = nullptr;
    ibv_mr *mr = nullptr;
    size_t slot = 0;

    void allocate(rdma_cm_id *id, uint32_t count, size_t slot_size)
    {
        void *mem = nullptr;
        slot = slot_size;
        if (posix_memalign(&mem, 4096, slot * count))
            throw std::runtime_error("no memory for buffers");
        base = static_cast<uint8_t *>(mem);
        std::memset(base, 0, slot * count);
        mr = rdma_reg_msgs(id, base, slot * count);
        if (!mr)
            throw sys_error("registering buffers");
    }
    uint8_t *at(uint32_t i) const { return base + i * slot; }
    ~Buffers()
    {
        if (mr)
            ibv_dereg_mr(mr);
        std::free(base);
    }
};

// One accepted connection: its queue pair, completion queue and buffers.
class Conn {
public:
    Conn(rdma_cm_id *id, uint32_t peer_recv_size) : id_(id), peer_recv_size_(peer_recv_size) {}
    ~Conn();
    Conn(const Conn &) = delete;
    Conn &operator=(const Conn &) = delete;

    void setup();
    int fd() const { return channel_->fd; }
    // Handles every completion; false when the connection is to be closed.
    bool poll_completions(const Options &opt, Counters &n);
    // Posts the held-back messages that are due; false on a failure.
    bool post_due(Clock::time_point now, Counters &n);
    // When the next held-back message is due, if any.
    std::optional<Clock::time_point> next_due() const;
    void close();

private:
    // A message of a turn held back by --gap-ms; disconnect: close the
    // connection once its Send has completed.
    struct Outgoing {
        Clock::time_point due;
        std::vector<uint8_t> msg;
        bool disconnect = false;
    };

    bool post_recv(uint32_t i);
    bool post_send(const std::vector<uint8_t> &msg, bool disconnect,
                   const Write *write = nullptr);
    bool on_call(uint32_t slot, uint32_t len, const Options &opt, Counters &n);

    rdma_cm_id *id_;
    uint32_t peer_recv_size_;
    ibv_comp_channel *channel_ = nullptr;
    ibv_cq *cq_ = nullptr;
    std::unique_ptr<Buffers> recvs_ = std::make_unique<Buffers>();
    std::unique_ptr<Buffers> sends_ = std::make_unique<Buffers>();
    std::vector<uint32_t> free_sends_;
    std::deque<Outgoing> later_;
    // The Send after whose completion the connection is closed.
    std::optional<uint32_t> close_after_;
    bool closing_ = false;
};

void Conn::setup()
{
    channel_ = ibv_create_comp_channel(id_->verbs);
    if (!channel_)
        throw sys_error("completion channel");
    make_nonblocking(channel_->fd);
    cq_ = ibv_create_cq(id_->verbs, recv_depth + send_depth, nullptr, channel_, 0);
    if (!cq_)
        throw sys_error("completion queue");
    if (ibv_req_notify_cq(cq_, 0))
        throw sys_error("arming the completion queue");

    ibv_qp_init_attr attr = {};
    attr.send_cq = cq_;
    attr.recv_cq = cq_;
    attr.qp_type = IBV_QPT_RC;
    attr.cap.max_send_wr = send_depth;
    attr.cap.max_recv_wr = recv_depth;
    attr.cap.max_send_sge = 1;
    attr.cap.max_recv_sge = 1;
    if (rdma_create_qp(id_, nullptr, &attr))
        throw sys_error("queue pair");

    recvs_->allocate(id_, recv_depth, inline_size);
    sends_->allocate(id_, send_depth, send_slot_size);
    for (uint32_t i = 0; i < send_depth; i++)
        free_sends_.push_back(i);
    for (uint32_t i = 0; i < recv_depth; i++)
        if (!post_recv(i))
            throw sys_error("posting a Receive");
}

Conn::~Conn()
{
    if (id_->qp)
        rdma_destroy_qp(id_);
    if (cq_)
        ibv_destroy_cq(cq_);
    if (channel_)
        ibv_destroy_comp_channel(channel_);
    // The registrations go before the ID whose device holds their PD.
    recvs_.reset();
    sends_.reset();
    rdma_destroy_id(id_);
}

bool Conn::post_recv(uint32_t i)
{
    ibv_sge sge = {reinterpret_cast<uintptr_t>(recvs_->at(i)), inline_size, recvs_->mr->lkey};
    ibv_recv_wr wr = {}, *bad = nullptr;

    wr.wr_id = i;
    wr.sg_list = &sge;
    wr.num_sge = 1;
    return ibv_post_recv(id_->qp, &wr, &bad) == 0;
}

// A Send of msg, or with write an RDMA Write of msg to where it says.
bool Conn::post_send(const std::vector<uint8_t> &msg, bool disconnect, const Write *write)
{
    ibv_send_wr wr = {}, *bad = nullptr;
    ibv_sge sge;
    uint32_t slot;

    if (free_sends_.empty() || msg.size() > send_slot_size)
        return false;
    slot = free_sends_.back();
    free_sends_.pop_back();
    std::memcpy(sends_->at(slot), msg.data(), msg.size());
    sge = {reinterpret_cast<uintptr_t>(sends_->at(slot)), uint32_t(msg.size()), sends_->mr->lkey};
    wr.wr_id = send_tag | slot;
    wr.sg_list = &sge;
    wr.num_sge = 1;
    wr.opcode = IBV_WR_SEND;
    wr.send_flags = IBV_SEND_SIGNALED;
    if (write) {
        wr.opcode = IBV_WR_RDMA_WRITE;
        wr.wr.rdma.remote_addr = write->offset;
        wr.wr.rdma.rkey = write->handle;
    }
    if (ibv_post_send(id_->qp, &wr, &bad)) {
        free_sends_.push_back(slot);
        return false;
    }
    if (disconnect)
        close_after_ = slot;
    return true;
}

bool Conn::post_due(Clock::time_point now, Counters &n)
{
    while (!later_.empty() && later_.front().due <= now && !closing_) {
        if (!post_send(later_.front().msg, later_.front().disconnect))
            return false;
        n.messages++;
        later_.pop_front();
    }
    return true;
}

std::optional<Clock::time_point> Conn::next_due() const
{
    if (later_.empty() || closing_)
        return std::nullopt;
    return later_.front().due;
}

bool Conn::on_call(uint32_t slot, uint32_t len, const Options &opt, Counters &n)
{
    std::optional<Call> call = parse_call(recvs_->at(slot), len);
    bool turn;
    Plan p;

    if (!call) {
        n.unparsed++;
        return post_recv(slot);
    }
    n.calls++;
    turn = opt.script != Script::Good && n.calls % opt.every == 0;
    if (turn)
        n.hostile++;
    p = plan(opt.script, turn, *call, Params{opt.credits, peer_recv_size_, recv_depth});
    // The Receive goes back first: the reply lets another call come.
    if (!post_recv(slot))
        return false;
    if (p.disconnect)
        n.disconnects++;
    // The Writes go first: the RC queue keeps them ahead of the messages.
    for (const Write &w : p.writes) {
        if (!post_send(w.data, false, &w))
            return false;
        n.writes++;
    }
    Clock::time_point due = Clock::now();
    for (size_t i = 0; i < p.messages.size(); i++) {
        bool last = i + 1 == p.messages.size();
        if (i)
            due += std::chrono::milliseconds(opt.gap_ms);
        // Behind a held-back message, every later one waits its turn too.
        if ((i && opt.gap_ms) || !later_.empty()) {
            later_.push_back({due, p.messages[i], last && p.disconnect});
            continue;
        }
        if (!post_send(p.messages[i], last && p.disconnect))
            return false;
        n.messages++;
    }
    return true;
}

bool Conn::poll_completions(const Options &opt, Counters &n)
{
    ibv_cq *cq;
    void *ctx;
    ibv_wc wc[16];
    bool ok = true;
    int got;

    if (ibv_get_cq_event(channel_, &cq, &ctx) == 0) {
        ibv_ack_cq_events(cq, 1);
        ibv_req_notify_cq(cq, 0);
    }
    while ((got = ibv_poll_cq(cq_, 16, wc)) > 0) {
        for (int i = 0; i < got; i++) {
            bool is_send = wc[i].wr_id & send_tag;
            uint32_t slot = uint32_t(wc[i].wr_id);

            if (is_send)
                free_sends_.push_back(slot);
            if (is_send && close_after_ == slot)
                ok = false;
            if (wc[i].status != IBV_WC_SUCCESS) {
                if (wc[i].status != IBV_WC_WR_FLUSH_ERR)
                    (is_send ? n.send_errors : n.recv_errors)++;
                ok = false;
                continue;
            }
            if (!is_send && !closing_ && !on_call(slot, wc[i].byte_len, opt, n))
                ok = false;
        }
    }
    return ok;
}

void Conn::close()
{
    if (closing_)
        return;
    closing_ = true;
    rdma_disconnect(id_);
}

class Server {
public:
    explicit Server(const Options &opt) : opt_(opt) {}
    ~Server();
    void listen();
    void run();
    const Counters &counters() const { return n_; }

private:
    int poll_timeout() const;
    void on_cm_event();
    void accept(rdma_cm_event *ev);
    void forget(rdma_cm_id *id);

    const Options &opt_;
    Counters n_;
    rdma_event_channel *events_ = nullptr;
    rdma_cm_id *listener_ = nullptr;
    std::map<rdma_cm_id *, std::unique_ptr<Conn>> conns_;
};

Server::~Server()
{
    conns_.clear();
    if (listener_)
        rdma_destroy_id(listener_);
    if (events_)
        rdma_destroy_event_channel(events_);
}

void Server::listen()
{
    addrinfo hints = {}, *res = nullptr;
    int err;

    events_ = rdma_create_event_channel();
    if (!events_)
        throw sys_error("event channel");
    make_nonblocking(events_->fd);
    if (rdma_create_id(events_, &listener_, nullptr, RDMA_PS_TCP))
        throw sys_error("rdma_create_id");
    hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV | AI_PASSIVE;
    err = getaddrinfo(opt_.addr.c_str(), opt_.port.c_str(), &hints, &res);
    if (err)
        throw std::runtime_error(opt_.addr + ": " + gai_strerror(err));
    err = rdma_bind_addr(listener_, res->ai_addr);
    freeaddrinfo(res);
    if (err)
        throw sys_error("binding " + opt_.addr + " port " + opt_.port);
    if (rdma_listen(listener_, 16))
        throw sys_error("rdma_listen");
}

void Server::accept(rdma_cm_event *ev)
{
    const rdma_conn_param &in = ev->param.conn;
    std::optional<PeerInline> peer = parse_private_data(in.private_data, in.private_data_len);
    auto conn = std::make_unique<Conn>(ev->id, peer ? peer->recv_size : 1024);
    std::vector<uint8_t> pdata = connect_private_data(inline_size, inline_size);
    rdma_conn_param param = {};

    try {
        conn->setup();
    } catch (const std::exception &e) {
        std::cerr << "xr-hostile-server: refusing a connection: " << e.what() << "\n";
        rdma_reject(ev->id, nullptr, 0);
        // The ID goes with conn, once the event is acknowledged.
        rdma_ack_cm_event(ev);
        return;
    }
    param.private_data = pdata.data();
    param.private_data_len = uint8_t(pdata.size());
    param.responder_resources = 0;
    param.initiator_depth = 0;
    param.rnr_retry_count = 7;
    if (rdma_accept(ev->id, &param)) {
        std::cerr << "xr-hostile-server: rdma_accept: " << std::strerror(errno) << "\n";
        rdma_ack_cm_event(ev);
        return;
    }
    conns_[ev->id] = std::move(conn);
    rdma_ack_cm_event(ev);
}

// A connection is over: its resources go, after the event is acknowledged.
void Server::forget(rdma_cm_id *id)
{
    conns_.erase(id);
}

void Server::on_cm_event()
{
    rdma_cm_event *ev;
    rdma_cm_id *id;

    if (rdma_get_cm_event(events_, &ev))
        return;
    id = ev->id;
    switch (ev->event) {
    case RDMA_CM_EVENT_CONNECT_REQUEST:
        accept(ev);
        return;
    case RDMA_CM_EVENT_ESTABLISHED:
        n_.connections++;
        break;
    case RDMA_CM_EVENT_DISCONNECTED:
    case RDMA_CM_EVENT_CONNECT_ERROR:
    case RDMA_CM_EVENT_UNREACHABLE:
    case RDMA_CM_EVENT_REJECTED:
    case RDMA_CM_EVENT_DEVICE_REMOVAL:
        rdma_ack_cm_event(ev);
        if (id != listener_)
            forget(id);
        return;
    default:
        break;
    }
    rdma_ack_cm_event(ev);
}

// Milliseconds poll() may wait: at most 200, less when a held-back
// message is due sooner.
int Server::poll_timeout() const
{
    Clock::time_point until = Clock::now() + std::chrono::milliseconds(200);

    for (const auto &c : conns_) {
        std::optional<Clock::time_point> due = c.second->next_due();
        if (due && *due < until)
            until = *due;
    }
    auto ms = std::chrono::ceil<std::chrono::milliseconds>(until - Clock::now()).count();
    return int(std::max<long long>(ms, 0));
}

void Server::run()
{
    while (!stop_asked) {
        std::vector<pollfd> fds = {{events_->fd, POLLIN, 0}};
        std::vector<rdma_cm_id *> ids;

        for (auto &c : conns_) {
            fds.push_back({c.second->fd(), POLLIN, 0});
            ids.push_back(c.first);
        }
        if (poll(fds.data(), fds.size(), poll_timeout()) < 0) {
            if (errno == EINTR)
                continue;
            throw sys_error("poll");
        }
        for (size_t i = 1; i < fds.size(); i++) {
            Conn &c = *conns_.at(ids[i - 1]);
            if ((fds[i].revents && !c.poll_completions(opt_, n_)) ||
                !c.post_due(Clock::now(), n_))
                c.close();
        }
        if (fds[0].revents)
            on_cm_event();
    }
}

} // namespace

int main(int argc, char **argv)
{
    CLI::App app{"An RPC-over-RDMA responder that answers RPC NULL calls the way a "
                 "broken or hostile server would."};
    Options opt;
    std::string script = "good";
    std::string names;

    for (const ScriptInfo &i : scripts())
        names += std::string("\n  ") + i.name + ": " + i.what;
    app.add_option("--script", script, "what to do on a hostile turn:" + names);
    app.add_option("--every", opt.every, "every Nth call is a hostile turn (default 1)")
        ->check(CLI::Range(uint64_t(1), uint64_t(1000000)));
    app.add_option("--credits", opt.credits,
                   "credits every reply grants (default: what the call asks for, at most 128)");
    app.add_option("--gap-ms", opt.gap_ms,
                   "milliseconds between the messages of one turn (default 0)")
        ->check(CLI::Range(0u, 10000u));
    app.add_option("--ready", opt.ready, "file written once the server listens");
    app.add_option("addr", opt.addr, "local address to listen on")->required();
    app.add_option("port", opt.port, "port")->required();
    CLI11_PARSE(app, argc, argv);

    std::optional<Script> s = script_by_name(script);
    if (!s) {
        std::cerr << "xr-hostile-server: unknown script " << script << "\n";
        return 2;
    }
    opt.script = *s;
    std::signal(SIGINT, on_stop);
    std::signal(SIGTERM, on_stop);

    Server server(opt);
    try {
        server.listen();
        if (!opt.ready.empty())
            std::ofstream(opt.ready) << "listening\n";
        server.run();
    } catch (const std::exception &e) {
        std::cerr << "xr-hostile-server: " << e.what() << "\n";
        return 1;
    }
    const Counters &n = server.counters();
    nlohmann::json out = {
        {"script", script_name(opt.script)}, {"connections", n.connections},
        {"calls", n.calls},         {"hostile", n.hostile},
        {"messages", n.messages},   {"writes", n.writes},
        {"disconnects", n.disconnects},
        {"send-errors", n.send_errors}, {"recv-errors", n.recv_errors},
        {"unparsed", n.unparsed},
    };
    std::cout << out.dump() << std::endl;
    return 0;
}
