// SPDX-License-Identifier: GPL-2.0
// SIGINT and SIGTERM under StopSignals: a stop request that can only end a
// wait, and everything put back afterwards. The signals are raised in this
// process: were they not handled, the test binary would end.
#include <gtest/gtest.h>

#include <cerrno>

#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include "signals.hpp"

using namespace rdmactl;

namespace {

bool signal_blocked(int sig)
{
    sigset_t mask;
    sigprocmask(SIG_BLOCK, nullptr, &mask);
    return sigismember(&mask, sig);
}

bool signal_pending(int sig)
{
    sigset_t set;
    sigpending(&set);
    return sigismember(&set, sig);
}

struct sigaction handler_of(int sig)
{
    struct sigaction sa = {};
    sigaction(sig, nullptr, &sa);
    return sa;
}

// A pipe that never becomes readable: a wait on it ends only by a signal
// (or after its timeout, which a passing test never reaches).
class QuietPipe {
public:
    QuietPipe() { EXPECT_EQ(pipe(fds_), 0); }
    ~QuietPipe()
    {
        close(fds_[0]);
        close(fds_[1]);
    }
    int read_end() const { return fds_[0]; }

private:
    int fds_[2] = {-1, -1};
};

// A wait with the wait mask on a pipe that stays quiet ends with EINTR:
// a signal pending came in.
bool wait_ends_by_signal()
{
    QuietPipe quiet;
    pollfd pfd{quiet.read_end(), POLLIN, 0};
    timespec ts{30, 0};
    int n = ppoll(&pfd, 1, &ts, stop_wait_mask());
    return n == -1 && errno == EINTR;
}

// The stop request is the process's: none is left for the next test.
class StopSignalsTest : public ::testing::Test {
protected:
    void TearDown() override { clear_stop_request(); }
};

TEST_F(StopSignalsTest, InstalledWithoutRestartAndBlocked)
{
    EXPECT_EQ(stop_wait_mask(), nullptr);
    {
        StopSignals signals;
        EXPECT_EQ(stop_wait_mask(), &signals.wait_mask());
        for (int sig : {SIGINT, SIGTERM}) {
            struct sigaction sa = handler_of(sig);
            EXPECT_NE(sa.sa_handler, SIG_DFL) << sig;
            EXPECT_NE(sa.sa_handler, SIG_IGN) << sig;
            EXPECT_FALSE(sa.sa_flags & SA_RESTART) << sig;
            EXPECT_TRUE(signal_blocked(sig)) << sig;
            EXPECT_FALSE(sigismember(&signals.wait_mask(), sig)) << sig;
        }
    }
    EXPECT_EQ(stop_wait_mask(), nullptr);
}

// A signal outside a wait stays pending; the next wait with the wait mask
// takes it and returns EINTR at once.
TEST_F(StopSignalsTest, ASignalEndsTheNextWait)
{
    StopSignals signals;
    EXPECT_FALSE(stop_requested());
    ASSERT_EQ(raise(SIGINT), 0);
    EXPECT_FALSE(stop_requested());
    EXPECT_TRUE(signal_pending(SIGINT));

    EXPECT_TRUE(wait_ends_by_signal());
    EXPECT_TRUE(stop_requested());
    EXPECT_FALSE(signal_pending(SIGINT));
}

// Put back as it was; a signal still pending is taken by the handler on
// the way out, as a stop request, instead of ending the process.
TEST_F(StopSignalsTest, RestoresMaskAndHandlers)
{
    struct sigaction int_before = handler_of(SIGINT), term_before = handler_of(SIGTERM);
    bool int_blocked = signal_blocked(SIGINT), term_blocked = signal_blocked(SIGTERM);
    {
        StopSignals signals;
        ASSERT_EQ(raise(SIGTERM), 0);
        EXPECT_FALSE(stop_requested());
    }
    EXPECT_TRUE(stop_requested());
    EXPECT_FALSE(signal_pending(SIGTERM));
    EXPECT_EQ(handler_of(SIGINT).sa_handler, int_before.sa_handler);
    EXPECT_EQ(handler_of(SIGTERM).sa_handler, term_before.sa_handler);
    EXPECT_EQ(signal_blocked(SIGINT), int_blocked);
    EXPECT_EQ(signal_blocked(SIGTERM), term_blocked);
    EXPECT_EQ(stop_wait_mask(), nullptr);
}

TEST_F(StopSignalsTest, ANewOneForgetsAnEarlierStop)
{
    request_stop();
    EXPECT_TRUE(stop_requested());
    StopSignals signals;
    EXPECT_FALSE(stop_requested());
    request_stop();
    EXPECT_TRUE(stop_requested());
    clear_stop_request();
    EXPECT_FALSE(stop_requested());
}

// Made to take SIGHUP: blocked but in the wait, where it ends the wait as
// a request that take_hangup() reports once, and is no stop.
TEST_F(StopSignalsTest, HangupEndsAWaitAsAReopenRequest)
{
    struct sigaction hup_before = handler_of(SIGHUP);
    bool hup_blocked = signal_blocked(SIGHUP);
    {
        StopSignals signals(true);
        EXPECT_TRUE(signal_blocked(SIGHUP));
        EXPECT_FALSE(sigismember(&signals.wait_mask(), SIGHUP));
        EXPECT_FALSE(handler_of(SIGHUP).sa_flags & SA_RESTART);
        EXPECT_FALSE(take_hangup());
        ASSERT_EQ(raise(SIGHUP), 0);
        EXPECT_TRUE(signal_pending(SIGHUP));

        EXPECT_TRUE(wait_ends_by_signal());
        EXPECT_TRUE(take_hangup());
        EXPECT_FALSE(take_hangup());
        EXPECT_FALSE(stop_requested());
    }
    EXPECT_EQ(handler_of(SIGHUP).sa_handler, hup_before.sa_handler);
    EXPECT_EQ(signal_blocked(SIGHUP), hup_blocked);
}

// One inside a StopSignals that takes SIGHUP lets SIGHUP end its waits
// too, and does not forget a SIGHUP taken but not yet asked about.
TEST_F(StopSignalsTest, HangupThroughANestedOne)
{
    StopSignals outer(true);
    ASSERT_EQ(raise(SIGHUP), 0);
    EXPECT_TRUE(wait_ends_by_signal());
    {
        StopSignals inner;
        EXPECT_FALSE(sigismember(&inner.wait_mask(), SIGHUP));
        StopSignals inner_hangup(true);
        EXPECT_FALSE(sigismember(&inner_hangup.wait_mask(), SIGHUP));
    }
    EXPECT_TRUE(take_hangup());
    EXPECT_FALSE(take_hangup());
}

// Made without it, SIGHUP is left alone.
TEST_F(StopSignalsTest, HangupUntouchedByDefault)
{
    struct sigaction hup_before = handler_of(SIGHUP);
    StopSignals signals;
    EXPECT_EQ(handler_of(SIGHUP).sa_handler, hup_before.sa_handler);
    EXPECT_EQ(sigismember(&signals.wait_mask(), SIGHUP), signal_blocked(SIGHUP));
}

TEST_F(StopSignalsTest, NestedRestoresTheOuter)
{
    StopSignals outer;
    {
        StopSignals inner;
        EXPECT_EQ(stop_wait_mask(), &inner.wait_mask());
        EXPECT_FALSE(sigismember(&inner.wait_mask(), SIGINT));
    }
    EXPECT_EQ(stop_wait_mask(), &outer.wait_mask());
    EXPECT_TRUE(signal_blocked(SIGINT));
    EXPECT_TRUE(signal_blocked(SIGTERM));
    ASSERT_EQ(raise(SIGINT), 0); // still ours: a stop, not the end
    EXPECT_TRUE(signal_pending(SIGINT));
}

TEST_F(StopSignalsTest, WindowLetsTheSignalsIn)
{
    StopSignals signals;
    ASSERT_EQ(raise(SIGTERM), 0);
    EXPECT_FALSE(stop_requested());
    {
        StopWindow window;
        // The pending one was taken as the window opened.
        EXPECT_TRUE(stop_requested());
        EXPECT_FALSE(signal_blocked(SIGINT));
        EXPECT_FALSE(signal_blocked(SIGTERM));
    }
    EXPECT_TRUE(signal_blocked(SIGINT));
    EXPECT_TRUE(signal_blocked(SIGTERM));
    EXPECT_FALSE(signal_pending(SIGTERM));
}

TEST_F(StopSignalsTest, NoWindowWithoutStopSignals)
{
    sigset_t before, inside;
    sigprocmask(SIG_BLOCK, nullptr, &before);
    {
        StopWindow window;
        sigprocmask(SIG_BLOCK, nullptr, &inside);
    }
    EXPECT_EQ(sigismember(&inside, SIGINT), sigismember(&before, SIGINT));
    EXPECT_EQ(sigismember(&inside, SIGTERM), sigismember(&before, SIGTERM));
}

} // namespace
