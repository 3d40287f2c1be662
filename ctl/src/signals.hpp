// SPDX-License-Identifier: GPL-2.0
// SIGINT and SIGTERM as a request to stop, for the commands that run until
// interrupted (monitor, bench run's wait, ping): the handlers only set a
// flag, and the signals are blocked except while waiting, so that a signal
// ends a wait (ppoll(2) with stop_wait_mask() returns EINTR) and is never
// seen in the middle of handling what a wait gave. A daemon may take
// SIGHUP the same way, as a request to reopen its log.
#pragma once

#include <signal.h>

namespace rdmactl {

// Asks for a stop, as SIGINT and SIGTERM do under StopSignals.
void request_stop();

// Whether a stop was asked for since the last StopSignals was made or
// clear_stop_request() was called.
bool stop_requested();

void clear_stop_request();

// Whether SIGHUP came, under a StopSignals made to take it, since the last
// call; the request is cleared.
bool take_hangup();

// The signal mask to wait with while a StopSignals lives: the mask from
// before it, without SIGINT and SIGTERM. nullptr when none lives (ppoll(2)
// then keeps the mask as it is, and the signals do what they did before).
const sigset_t *stop_wait_mask();

// While one lives, SIGINT and SIGTERM do not end the process: they ask for
// a stop. Their handlers are installed without SA_RESTART, so a wait they
// interrupt returns EINTR instead of going on. The destructor puts the
// mask back before the handlers: a signal still pending then is taken by
// ours (a stop request) rather than ending the process on the way out.
// One may live inside another; the inner one restores the outer's state.
// Made with hangup set, it takes SIGHUP the same way, as a request
// that take_hangup() reports, which also ends a wait.
class StopSignals {
public:
    explicit StopSignals(bool hangup = false);
    ~StopSignals();
    StopSignals(const StopSignals &) = delete;
    StopSignals &operator=(const StopSignals &) = delete;

    const sigset_t &wait_mask() const { return wait_mask_; }

private:
    bool hangup_;
    struct sigaction old_int_ = {}, old_term_ = {}, old_hup_ = {};
    sigset_t old_mask_;
    sigset_t wait_mask_;
    const sigset_t *outer_wait_mask_;
};

// While one lives under a StopSignals, SIGINT and SIGTERM are not blocked:
// a blocking system call made meanwhile, such as a write(2) to a pipe that
// nobody reads, ends with EINTR when one comes. For the calls besides the
// waits that a stop must be able to end; without a StopSignals, nothing.
class StopWindow {
public:
    StopWindow();
    ~StopWindow();
    StopWindow(const StopWindow &) = delete;
    StopWindow &operator=(const StopWindow &) = delete;

private:
    bool open_ = false;
    sigset_t saved_;
};

} // namespace rdmactl
