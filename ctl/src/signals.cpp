// SPDX-License-Identifier: GPL-2.0
#include "signals.hpp"

namespace rdmactl {

namespace {

volatile sig_atomic_t stop_flag = 0;
volatile sig_atomic_t hangup_flag = 0;

// The wait mask of the StopSignals that lives, if any.
const sigset_t *active_wait_mask = nullptr;

void on_stop_signal(int)
{
    stop_flag = 1;
}

void on_hangup(int)
{
    hangup_flag = 1;
}

sigset_t stop_set(bool hangup)
{
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    if (hangup)
        sigaddset(&set, SIGHUP);
    return set;
}

} // namespace

void request_stop()
{
    stop_flag = 1;
}

bool stop_requested()
{
    return stop_flag;
}

void clear_stop_request()
{
    stop_flag = 0;
}

bool take_hangup()
{
    bool came = hangup_flag;
    hangup_flag = 0;
    return came;
}

const sigset_t *stop_wait_mask()
{
    return active_wait_mask;
}

StopSignals::StopSignals(bool hangup) : hangup_(hangup), outer_wait_mask_(active_wait_mask)
{
    stop_flag = 0;
    struct sigaction sa = {};
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0; // no SA_RESTART: a signal must end the wait it interrupts
    sigaction(SIGINT, &sa, &old_int_);
    sigaction(SIGTERM, &sa, &old_term_);
    // hangup_flag stays: an outer one's SIGHUP may not be taken yet.
    if (hangup_) {
        sa.sa_handler = on_hangup;
        sigaction(SIGHUP, &sa, &old_hup_);
    }

    sigset_t block = stop_set(hangup_);
    sigprocmask(SIG_BLOCK, &block, &old_mask_);
    wait_mask_ = old_mask_;
    sigdelset(&wait_mask_, SIGINT);
    sigdelset(&wait_mask_, SIGTERM);
    // Inside one that takes SIGHUP, SIGHUP still ends the waits.
    if (hangup_ || (outer_wait_mask_ && !sigismember(outer_wait_mask_, SIGHUP)))
        sigdelset(&wait_mask_, SIGHUP);
    active_wait_mask = &wait_mask_;
}

StopSignals::~StopSignals()
{
    active_wait_mask = outer_wait_mask_;
    sigprocmask(SIG_SETMASK, &old_mask_, nullptr);
    sigaction(SIGINT, &old_int_, nullptr);
    sigaction(SIGTERM, &old_term_, nullptr);
    if (hangup_)
        sigaction(SIGHUP, &old_hup_, nullptr);
}

StopWindow::StopWindow()
{
    if (const sigset_t *mask = stop_wait_mask())
        open_ = sigprocmask(SIG_SETMASK, mask, &saved_) == 0;
}

StopWindow::~StopWindow()
{
    // A signal that came meanwhile was taken already: blocking them again
    // leaves none pending.
    if (open_)
        sigprocmask(SIG_SETMASK, &saved_, nullptr);
}

} // namespace rdmactl
