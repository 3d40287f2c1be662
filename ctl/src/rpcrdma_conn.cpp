// SPDX-License-Identifier: GPL-2.0
#include "rpcrdma_conn.hpp"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <optional>
#include <string>
#include <thread>

#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>

#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>
#include <rdma/rdma_verbs.h>

#include "errors.hpp"
#include "rpcrdma_msg.hpp"
#include "signals.hpp"

namespace rdmactl {

namespace {

constexpr uint64_t send_tag = uint64_t(1) << 32; // wr_id: send slots have it

std::string errno_text(const std::string &what)
{
    return what + ": " + std::strerror(errno);
}

int remaining_ms(Clock::time_point deadline)
{
    Clock::duration left = deadline - Clock::now();
    if (left <= Clock::duration::zero())
        return 0;
    long long ms = std::chrono::ceil<std::chrono::milliseconds>(left).count();
    return int(std::min<long long>(ms, INT_MAX));
}

// A stop asked for by SIGINT or SIGTERM while StopSignals are installed
// (without them the signals end the process, and no stop is asked for).
bool stop_signalled()
{
    return stop_wait_mask() && stop_requested();
}

void set_nonblocking(int fd, const char *what)
{
    int flags = fcntl(fd, F_GETFL);
    if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0)
        throw Error(errno_text(std::string("making the ") + what + " non-blocking"));
}

// Memory of ours, page-aligned, and its registration.
struct Registered {
    uint8_t *base = nullptr;
    ibv_mr *mr = nullptr;

    // bytes of page-aligned memory; throws Error naming what.
    void allocate_memory(size_t bytes, const std::string &what)
    {
        void *mem = nullptr;
        if (posix_memalign(&mem, 4096, bytes))
            throw Error("no memory for the " + what);
        base = static_cast<uint8_t *>(mem);
    }

    void release()
    {
        if (mr)
            ibv_dereg_mr(mr);
        std::free(base);
        mr = nullptr;
        base = nullptr;
    }
};

// count buffers of size bytes each, in one registered region.
struct Slots : Registered {
    size_t size = 0;
    uint32_t count = 0;

    uint8_t *at(uint32_t i) const { return base + size_t(i) * size; }

    void allocate(rdma_cm_id *id, uint32_t n, size_t bytes, const char *what)
    {
        count = n;
        size = (std::max<size_t>(bytes, 4) + 63) & ~size_t(63);
        allocate_memory(size * count, std::string(what) + " buffers");
        std::memset(base, 0, size * count);
        mr = rdma_reg_msgs(id, base, size * count);
        if (!mr)
            throw Error(errno_text(std::string("registering the ") + what + " buffers"));
    }
};

// --region: one buffer the server may read and write, filled with
// region_pattern().
struct RemoteRegion : Registered {
    size_t size = 0;

    void allocate(rdma_cm_id *id, uint64_t bytes)
    {
        allocate_memory(bytes, std::to_string(bytes) + "-byte region");
        size = bytes;
        for (size_t i = 0; i < size; i++)
            base[i] = region_pattern(i);
        mr = ibv_reg_mr(id->pd, base, size,
                        IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ |
                            IBV_ACCESS_REMOTE_WRITE);
        if (!mr)
            throw Error(errno_text("registering the region"));
    }

    void release()
    {
        Registered::release();
        size = 0;
    }
};

class RdmaConnection final : public Connection {
public:
    explicit RdmaConnection(const ConnectParams &params) : params_(params) {}
    ~RdmaConnection() override { teardown(); }

    RdmaConnection(const RdmaConnection &) = delete;
    RdmaConnection &operator=(const RdmaConnection &) = delete;

    void setup();
    bool send(const std::vector<uint8_t> &msg, Clock::time_point deadline) override;
    ConnEvent wait(Clock::time_point deadline) override;
    std::string peer_description() const override;
    uint32_t peer_recv_size() const override { return peer_ ? peer_->recv_size : 0; }
    std::optional<RegionInfo> region() const override;
    std::vector<uint8_t> region_contents() const override;

private:
    struct CmEvent {
        rdma_cm_event_type type;
        int status;
        std::vector<uint8_t> private_data;
    };

    std::string target() const { return params_.host + ':' + std::to_string(params_.port); }
    CmEvent wait_cm_event(Clock::time_point deadline, const char *waiting_for);
    void expect_cm_event(Clock::time_point deadline, rdma_cm_event_type want,
                         const char *waiting_for, std::vector<uint8_t> *private_data);
    std::optional<CmEvent> next_cm_event();
    void resolve(Clock::time_point deadline);
    void create_queues();
    void connect(rdma_conn_param &param, Clock::time_point deadline,
                 std::vector<uint8_t> &peer_pdata);
    void connect_holding_rtu(rdma_conn_param &param, Clock::time_point deadline,
                             std::vector<uint8_t> &peer_pdata);
    void ready_without_rtu();
    void send_held_rtu();
    void wait_cm_gone(Clock::time_point deadline);
    void post_recv(uint32_t slot);
    void poll_cq();
    void read_cm_events();
    bool collect();
    bool sleep_until_event(Clock::time_point deadline);
    void closed(const std::string &why);
    void teardown();

    ConnectParams params_;
    rdma_event_channel *ec_ = nullptr;
    rdma_cm_id *id_ = nullptr;
    ibv_comp_channel *cc_ = nullptr;
    ibv_cq *cq_ = nullptr;
    unsigned cq_events_ = 0; // taken from the channel, to acknowledge
    Slots send_, recv_;
    RemoteRegion region_;
    std::vector<uint32_t> free_send_;
    std::deque<ConnEvent> pending_;
    bool connected_ = false;    // rdma_connect() completed
    bool cm_gone_ = false;      // the connection manager reported the end
    bool down_ = false;         // no longer usable; Disconnected queued
    bool rtu_held_ = false;     // --hold-rtu: the RTU has not gone yet
    Clock::time_point rep_time_; // when the REP came
    std::string down_detail_;
    std::optional<PeerInline> peer_;
};

std::optional<RdmaConnection::CmEvent> RdmaConnection::next_cm_event()
{
    rdma_cm_event *ev = nullptr;
    if (rdma_get_cm_event(ec_, &ev)) {
        if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
            return std::nullopt;
        throw Error(errno_text("reading connection manager events"));
    }
    CmEvent out{ev->event, ev->status, {}};
    const auto *pd = static_cast<const uint8_t *>(ev->param.conn.private_data);
    if ((ev->event == RDMA_CM_EVENT_ESTABLISHED || ev->event == RDMA_CM_EVENT_CONNECT_RESPONSE ||
         ev->event == RDMA_CM_EVENT_REJECTED) &&
        pd)
        out.private_data.assign(pd, pd + ev->param.conn.private_data_len);
    rdma_ack_cm_event(ev);
    return out;
}

RdmaConnection::CmEvent RdmaConnection::wait_cm_event(Clock::time_point deadline,
                                                      const char *waiting_for)
{
    for (;;) {
        if (auto ev = next_cm_event())
            return *ev;
        pollfd pfd = {ec_->fd, POLLIN, 0};
        int n = poll(&pfd, 1, remaining_ms(deadline));
        if (n < 0 && errno != EINTR)
            throw Error(errno_text("poll"));
        if (n == 0 && Clock::now() >= deadline)
            throw Error("timed out waiting for " + std::string(waiting_for) + " of " + target());
    }
}

void RdmaConnection::expect_cm_event(Clock::time_point deadline, rdma_cm_event_type want,
                                     const char *waiting_for,
                                     std::vector<uint8_t> *private_data)
{
    CmEvent ev = wait_cm_event(deadline, waiting_for);
    if (ev.type == want) {
        if (private_data)
            *private_data = std::move(ev.private_data);
        return;
    }
    std::string status = " (status " + std::to_string(ev.status) + ")";
    switch (ev.type) {
    case RDMA_CM_EVENT_REJECTED:
        throw Error("connection to " + target() + " refused" + status +
                    ": is an RPC-over-RDMA server listening there?");
    case RDMA_CM_EVENT_ADDR_ERROR:
        throw Error("cannot resolve " + params_.host + " to an RDMA device" + status);
    case RDMA_CM_EVENT_ROUTE_ERROR:
        throw Error("no RDMA route to " + params_.host + status);
    case RDMA_CM_EVENT_UNREACHABLE:
        throw Error(target() + " is unreachable" + status);
    default:
        throw Error(std::string("unexpected connection manager event ") +
                    rdma_event_str(ev.type) + status + " waiting for " + waiting_for);
    }
}

void RdmaConnection::resolve(Clock::time_point deadline)
{
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo *res = nullptr;
    std::string port = std::to_string(params_.port);
    int rc = getaddrinfo(params_.host.c_str(), port.c_str(), &hints, &res);
    if (rc)
        throw Error("cannot resolve " + params_.host + ": " + gai_strerror(rc));
    sockaddr_storage addr{};
    std::memcpy(&addr, res->ai_addr, std::min<size_t>(res->ai_addrlen, sizeof(addr)));
    freeaddrinfo(res);

    int ms = std::max(1, remaining_ms(deadline));
    if (rdma_resolve_addr(id_, nullptr, reinterpret_cast<sockaddr *>(&addr), ms))
        throw Error(errno_text("rdma_resolve_addr " + params_.host));
    expect_cm_event(deadline, RDMA_CM_EVENT_ADDR_RESOLVED, "address resolution", nullptr);
    if (rdma_resolve_route(id_, std::max(1, remaining_ms(deadline))))
        throw Error(errno_text("rdma_resolve_route " + params_.host));
    expect_cm_event(deadline, RDMA_CM_EVENT_ROUTE_RESOLVED, "route resolution", nullptr);
}

void RdmaConnection::create_queues()
{
    cc_ = ibv_create_comp_channel(id_->verbs);
    if (!cc_)
        throw Error(errno_text("ibv_create_comp_channel"));
    set_nonblocking(cc_->fd, "completion channel");
    int cqe = int(params_.send_depth + params_.recv_depth + 1);
    cq_ = ibv_create_cq(id_->verbs, cqe, nullptr, cc_, 0);
    if (!cq_)
        throw Error(errno_text("ibv_create_cq"));

    ibv_qp_init_attr attr{};
    attr.send_cq = cq_;
    attr.recv_cq = cq_;
    attr.cap.max_send_wr = params_.send_depth;
    attr.cap.max_recv_wr = params_.recv_depth;
    attr.cap.max_send_sge = 1;
    attr.cap.max_recv_sge = 1;
    attr.qp_type = IBV_QPT_RC;
    attr.sq_sig_all = 0;
    // The default protection domain of the device (id_->pd), which
    // rdma_reg_msgs() registers with as well.
    if (rdma_create_qp(id_, nullptr, &attr))
        throw Error(errno_text("rdma_create_qp"));

    send_.allocate(id_, params_.send_depth, params_.max_send, "send");
    recv_.allocate(id_, params_.recv_depth, params_.recv_size, "receive");
    if (params_.region_size)
        region_.allocate(id_, params_.region_size);
    for (uint32_t i = 0; i < send_.count; i++)
        free_send_.push_back(send_.count - 1 - i);
    for (uint32_t i = 0; params_.post_receives && i < recv_.count; i++)
        post_recv(i);
}

void RdmaConnection::post_recv(uint32_t slot)
{
    if (rdma_post_recv(id_, reinterpret_cast<void *>(uintptr_t(slot)), recv_.at(slot),
                       recv_.size, recv_.mr))
        throw Error(errno_text("posting a Receive"));
}

void RdmaConnection::setup()
{
    Clock::time_point deadline =
        Clock::now() + std::chrono::duration_cast<Clock::duration>(
                           std::chrono::duration<double>(params_.timeout));

    ec_ = rdma_create_event_channel();
    if (!ec_)
        throw Error(errno_text("cannot open the RDMA connection manager "
                               "(no RDMA device, or rdma_ucm not loaded?)"));
    set_nonblocking(ec_->fd, "connection manager channel");
    if (rdma_create_id(ec_, &id_, nullptr, RDMA_PS_TCP))
        throw Error(errno_text("rdma_create_id"));
    resolve(deadline);
    create_queues();

    std::vector<uint8_t> pdata =
        connect_private_data(params_.private_data, params_.inline_send, params_.recv_size);
    rdma_conn_param param{};
    param.private_data = pdata.empty() ? nullptr : pdata.data();
    param.private_data_len = uint8_t(pdata.size());
    // Calls carry no chunks, so the server never RDMA Reads from us (only
    // a raw message with a --region lets it, or the wire fuzzer's Read
    // chunks); but the in-tree server refuses a client that takes no
    // Reads at all.
    param.responder_resources = params_.responder_resources;
    param.initiator_depth = 0;
    param.flow_control = 1;
    param.retry_count = 6;
    // Credits keep a Receive posted for every call; running out of them is
    // the server's protocol error, and must not stall silently (unless a
    // test asks for a peer that takes no reply: --no-receives).
    param.rnr_retry_count = params_.rnr_retry;
    std::vector<uint8_t> peer_pdata;
    connect(param, deadline, peer_pdata);
    connected_ = true;
    peer_ = parse_private_data(peer_pdata.data(), peer_pdata.size());
}

void RdmaConnection::connect(rdma_conn_param &param, Clock::time_point deadline,
                             std::vector<uint8_t> &peer_pdata)
{
    if (params_.hold_rtu_ms)
        return connect_holding_rtu(param, deadline, peer_pdata);
    if (rdma_connect(id_, &param))
        throw Error(errno_text("rdma_connect " + target()));
    expect_cm_event(deadline, RDMA_CM_EVENT_ESTABLISHED, "the connection", &peer_pdata);
}

// librdmacm answers the server's REP with the RTU itself for an ID that
// has a queue pair. Without one it reports the REP (CONNECT_RESPONSE)
// and leaves the rest to us: the queue pair is hidden from it until
// then, its number given in the request instead.
void RdmaConnection::connect_holding_rtu(rdma_conn_param &param, Clock::time_point deadline,
                                         std::vector<uint8_t> &peer_pdata)
{
    ibv_qp *qp = id_->qp;

    param.qp_num = qp->qp_num;
    id_->qp = nullptr;
    try {
        if (rdma_connect(id_, &param))
            throw Error(errno_text("rdma_connect " + target()));
        expect_cm_event(deadline, RDMA_CM_EVENT_CONNECT_RESPONSE, "the connection", &peer_pdata);
    } catch (...) {
        id_->qp = qp;
        throw;
    }
    id_->qp = qp;
    rep_time_ = Clock::now();
    rtu_held_ = true;
    ready_without_rtu();
}

// Ready to receive, then to send, from the attributes the REP gave the
// connection manager; rdma_establish() (the RTU) comes later.
void RdmaConnection::ready_without_rtu()
{
    for (ibv_qp_state state : {IBV_QPS_RTR, IBV_QPS_RTS}) {
        ibv_qp_attr attr{};
        int mask = 0;
        attr.qp_state = state;
        if (rdma_init_qp_attr(id_, &attr, &mask))
            throw Error(errno_text("rdma_init_qp_attr"));
        if (int rc = ibv_modify_qp(id_->qp, &attr, mask))
            throw Error(std::string("ibv_modify_qp: ") + std::strerror(rc));
    }
}

// The end of the connection, reported once through wait().
void RdmaConnection::closed(const std::string &why)
{
    if (down_)
        return;
    down_ = true;
    down_detail_ = why;
    pending_.push_back(ConnEvent{ConnEvent::Kind::Disconnected, {}, why, Clock::now()});
}

void RdmaConnection::poll_cq()
{
    ibv_wc wcs[16];
    int n;
    while ((n = ibv_poll_cq(cq_, 16, wcs)) > 0) {
        Clock::time_point now = Clock::now();
        for (int i = 0; i < n; i++) {
            const ibv_wc &wc = wcs[i];
            auto slot = uint32_t(wc.wr_id);
            if (wc.wr_id & send_tag) {
                free_send_.push_back(slot);
                if (wc.status == IBV_WC_WR_FLUSH_ERR)
                    closed("the connection was closed");
                else if (wc.status != IBV_WC_SUCCESS)
                    closed(std::string("Send failed: ") + ibv_wc_status_str(wc.status));
                continue;
            }
            if (wc.status == IBV_WC_SUCCESS) {
                const uint8_t *data = recv_.at(slot);
                size_t len = std::min<size_t>(wc.byte_len, recv_.size);
                pending_.push_back(ConnEvent{ConnEvent::Kind::Received,
                                             std::vector<uint8_t>(data, data + len), "", now});
                if (!down_ && rdma_post_recv(id_, reinterpret_cast<void *>(uintptr_t(slot)),
                                             recv_.at(slot), recv_.size, recv_.mr))
                    closed(errno_text("re-posting a Receive"));
            } else if (wc.status == IBV_WC_WR_FLUSH_ERR) {
                closed("the connection was closed");
            } else {
                closed(std::string("Receive failed: ") + ibv_wc_status_str(wc.status));
            }
        }
    }
    if (n < 0)
        closed("polling the completion queue failed");
}

void RdmaConnection::read_cm_events()
{
    while (auto ev = next_cm_event()) {
        switch (ev->type) {
        case RDMA_CM_EVENT_DISCONNECTED:
            cm_gone_ = true;
            closed("the server closed the connection");
            break;
        case RDMA_CM_EVENT_DEVICE_REMOVAL:
            cm_gone_ = true;
            closed("the RDMA device was removed");
            break;
        default:
            break; // e.g. TIMEWAIT_EXIT
        }
    }
}

// Moves what has happened into pending_; true if anything is there.
bool RdmaConnection::collect()
{
    poll_cq();
    read_cm_events();
    if (!pending_.empty())
        return true;
    // Arm, then look again: a completion between the poll and the arming
    // would otherwise raise no event.
    if (ibv_req_notify_cq(cq_, 0))
        closed("arming the completion queue failed");
    poll_cq();
    return !pending_.empty();
}

// Sleeps until the completion channel or the connection manager has
// something, a stop signal comes, or deadline; false at the deadline.
// Under StopSignals, SIGINT and SIGTERM are let in during this sleep only
// (and end it with EINTR): the callers look at stop_signalled() after it.
bool RdmaConnection::sleep_until_event(Clock::time_point deadline)
{
    pollfd fds[2] = {{cc_->fd, POLLIN, 0}, {ec_->fd, POLLIN, 0}};
    int ms = remaining_ms(deadline);
    timespec ts{ms / 1000, long(ms % 1000) * 1000000};
    int n = ppoll(fds, 2, &ts, stop_wait_mask());
    if (n < 0) {
        if (errno != EINTR)
            closed(errno_text("poll"));
        return true;
    }
    if (n == 0)
        return Clock::now() < deadline;
    if (fds[0].revents) {
        ibv_cq *cq;
        void *ctx;
        if (!ibv_get_cq_event(cc_, &cq, &ctx))
            cq_events_++;
    }
    return true;
}

bool RdmaConnection::send(const std::vector<uint8_t> &msg, Clock::time_point deadline)
{
    if (msg.size() > send_.size)
        throw Error("a message of " + std::to_string(msg.size()) + " bytes does not fit the " +
                    std::to_string(send_.size) + "-byte send buffer");
    while (free_send_.empty() && !down_) {
        poll_cq();
        read_cm_events();
        if (!free_send_.empty() || down_)
            break;
        if (ibv_req_notify_cq(cq_, 0))
            closed("arming the completion queue failed");
        poll_cq();
        if (!free_send_.empty() || down_)
            break;
        if (stop_signalled())
            throw InterruptedError("interrupted waiting for a Send to complete");
        if (!sleep_until_event(deadline))
            throw Error("no Send completed within the timeout");
    }
    if (down_)
        return false;
    uint32_t slot = free_send_.back();
    free_send_.pop_back();
    void *ctx = reinterpret_cast<void *>(uintptr_t(send_tag | slot));
    int rc;
    if (msg.empty()) {
        rc = rdma_post_sendv(id_, ctx, nullptr, 0, IBV_SEND_SIGNALED);
    } else {
        std::memcpy(send_.at(slot), msg.data(), msg.size());
        rc = rdma_post_send(id_, ctx, send_.at(slot), msg.size(), send_.mr, IBV_SEND_SIGNALED);
    }
    if (rc) {
        free_send_.push_back(slot);
        throw Error(errno_text("posting a Send"));
    }
    return true;
}

ConnEvent RdmaConnection::wait(Clock::time_point deadline)
{
    for (;;) {
        if (!pending_.empty()) {
            ConnEvent ev = std::move(pending_.front());
            pending_.pop_front();
            return ev;
        }
        if (down_)
            return ConnEvent{ConnEvent::Kind::Disconnected, {}, down_detail_, Clock::now()};
        // After what had already arrived, before looking for more.
        if (stop_signalled())
            return ConnEvent{ConnEvent::Kind::Interrupted, {}, "", Clock::now()};
        if (collect())
            continue;
        if (!sleep_until_event(deadline))
            return ConnEvent{ConnEvent::Kind::Timeout, {}, "", Clock::now()};
    }
}

std::string RdmaConnection::peer_description() const
{
    if (!peer_)
        return "server sent no RFC 8797 private data (1024-byte inline default)";
    return "server inline send " + std::to_string(peer_->send_size) + " receive " +
           std::to_string(peer_->recv_size);
}

std::optional<RegionInfo> RdmaConnection::region() const
{
    if (!region_.mr)
        return std::nullopt;
    return RegionInfo{region_.mr->rkey, uint64_t(uintptr_t(region_.base)), region_.size,
                      region_.base};
}

std::vector<uint8_t> RdmaConnection::region_contents() const
{
    return std::vector<uint8_t>(region_.base, region_.base + region_.size);
}

// The RTU held back (--hold-rtu) goes out no sooner than its time, and
// the server, which may have been waiting for it to close the
// connection, is given the timeout to disconnect first.
void RdmaConnection::send_held_rtu()
{
    std::this_thread::sleep_until(rep_time_ + std::chrono::milliseconds(params_.hold_rtu_ms));
    rtu_held_ = false;
    // librdmacm sends the RTU only for an ID without a queue pair.
    ibv_qp *qp = id_->qp;
    id_->qp = nullptr;
    int rc = rdma_establish(id_);
    id_->qp = qp;
    if (rc)
        return;
    wait_cm_gone(Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                    std::chrono::duration<double>(params_.timeout)));
}

// Until the connection manager reports the end, or deadline.
void RdmaConnection::wait_cm_gone(Clock::time_point deadline)
{
    try {
        while (!cm_gone_ && Clock::now() < deadline) {
            read_cm_events();
            if (cm_gone_)
                break;
            pollfd pfd = {ec_->fd, POLLIN, 0};
            if (poll(&pfd, 1, remaining_ms(deadline)) <= 0)
                break;
        }
    } catch (const Error &) {
    }
}

void RdmaConnection::teardown()
{
    if (id_ && connected_ && !cm_gone_) {
        // Errors no longer matter here.
        if (rtu_held_)
            send_held_rtu();
        // An orderly disconnect, waited for a little.
        if (!cm_gone_ && !rdma_disconnect(id_))
            wait_cm_gone(Clock::now() + std::chrono::seconds(1));
    }
    if (id_ && id_->qp)
        rdma_destroy_qp(id_);
    send_.release();
    recv_.release();
    region_.release();
    if (cq_) {
        ibv_ack_cq_events(cq_, cq_events_);
        ibv_destroy_cq(cq_);
    }
    if (cc_)
        ibv_destroy_comp_channel(cc_);
    if (id_)
        rdma_destroy_id(id_);
    if (ec_)
        rdma_destroy_event_channel(ec_);
    cq_ = nullptr;
    cc_ = nullptr;
    id_ = nullptr;
    ec_ = nullptr;
}

} // namespace

std::unique_ptr<Connection> connect_rdma(const ConnectParams &params)
{
    auto conn = std::make_unique<RdmaConnection>(params);
    conn->setup(); // on failure the destructor frees what was made
    return conn;
}

} // namespace rdmactl
