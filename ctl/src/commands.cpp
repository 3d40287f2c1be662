// SPDX-License-Identifier: GPL-2.0
#include "commands.hpp"

#include <cerrno>
#include <cstring>
#include <exception>
#include <iostream>
#include <stdexcept>

#include <unistd.h>

#include <linux/xrpcrdma.h>

#include "bench.hpp"
#include "cli.hpp"
#include "complete.hpp"
#include "errors.hpp"
#include "output.hpp"
#include "rpcrdma_conn.hpp"
#include "tunables.hpp"

namespace rdmactl {

namespace {

void dev_show(const Command &cmd, Client &client, std::ostream &out)
{
    std::vector<Device> devs;
    if (cmd.dev_name)
        devs.push_back(client.get_device(*cmd.dev_name));
    else
        devs = client.list_devices();
    print_devices(out, devs, cmd.output);
}

void dev_set(const Command &cmd, Client &client, std::ostream &)
{
    client.set_device_enabled(cmd.dev_name.value(), cmd.enabled.value());
}

void module_show(const Command &cmd, Client &client, std::ostream &out)
{
    print_module(out, client.get_module(), cmd.output);
}

void transport_show(const Command &cmd, Client &client, std::ostream &out)
{
    std::vector<Transport> list;
    if (cmd.transport_id)
        list.push_back(client.get_transport(*cmd.transport_id));
    else
        list = client.list_transports();
    print_transports(out, list, cmd.output);
}

void listener_show(const Command &cmd, Client &client, std::ostream &out)
{
    print_listeners(out, client.list_listeners(), cmd.output);
}

// The class the module registered and nfsd's usual port for it.
struct ModeDefaults {
    const char *cls;
    uint16_t port;
};

ModeDefaults mode_defaults(Client &client)
{
    uint32_t mode = client.get_module().mode;
    switch (mode) {
    case XRPCRDMA_MODE_SIDEBYSIDE:
        return {"xrdma", 20050};
    case XRPCRDMA_MODE_DROPIN:
        return {"rdma", 20049};
    }
    throw Error("the module runs in a mode this rdmactl does not know (" + mode_name(mode) + ")");
}

// The address was checked when parsing: nfsd listens on every address.
void listener_add(const Command &cmd, Client &client, std::ostream &)
{
    ModeDefaults mode = mode_defaults(client);
    client.add_nfsd_listener(mode.cls, cmd.listen.value().port.value_or(mode.port));
}

bool listener_matches(const Transport &l, const ListenSpec &spec)
{
    return l.local.port == spec.port &&
           (!spec.addr || (l.local.family == spec.family && l.local.addr == *spec.addr));
}

void listener_del(const Command &cmd, Client &client, std::ostream &)
{
    if (cmd.transport_id) {
        client.delete_listener(*cmd.transport_id);
        return;
    }
    ListenSpec spec = cmd.listen.value();
    ModeDefaults mode = mode_defaults(client);
    if (!spec.port)
        spec.port = mode.port;
    std::vector<uint32_t> ids;
    for (const Transport &l : client.list_listeners()) {
        if (listener_matches(l, spec))
            ids.push_back(l.id);
    }
    if (ids.empty())
        throw Error("no " + std::string(mode.cls) + " listener on " + listen_spec_text(spec));
    for (uint32_t id : ids)
        client.delete_listener(id);
}

void stats_show(const Command &cmd, Client &client, std::ostream &out)
{
    print_stats(out, client.get_stats(), cmd.output);
}

void fault_show(const Command &cmd, Client &client, std::ostream &out)
{
    print_faults(out, client.list_faults(), cmd.output);
}

void fault_set(const Command &cmd, Client &client, std::ostream &)
{
    client.set_fault(cmd.fault.value());
}

// One point (trigger off), or every point the module lists.
void fault_clear(const Command &cmd, Client &client, std::ostream &)
{
    if (cmd.fault) {
        client.set_fault(*cmd.fault);
        return;
    }
    for (const Fault &f : client.list_faults()) {
        Fault off;
        off.point = f.point;
        client.set_fault(off);
    }
}

void config_show(const Command &cmd, Client &client, std::ostream &out)
{
    print_config(out, client.get_config(cmd.transport_id), cmd.output);
}

void config_set(const Command &cmd, Client &client, std::ostream &)
{
    client.set_config(cmd.transport_id, cmd.config);
}

void bench_show(const Command &cmd, Client &client, std::ostream &out)
{
    if (cmd.bench_id)
        print_bench(out, client.get_bench(*cmd.bench_id), cmd.output);
    else
        print_benches(out, client.list_benches(), cmd.output);
}

struct Handler {
    Object object;
    Verb verb;
    void (*fn)(const Command &, Client &, std::ostream &);
};

// One handler a line, in grammar order.
// clang-format off
constexpr Handler handlers[] = {
    {Object::Dev, Verb::Show, dev_show},
    {Object::Dev, Verb::Set, dev_set},
    {Object::Module, Verb::Show, module_show},
    {Object::Transport, Verb::Show, transport_show},
    {Object::Listener, Verb::Show, listener_show},
    {Object::Listener, Verb::Add, listener_add},
    {Object::Listener, Verb::Del, listener_del},
    {Object::Stats, Verb::Show, stats_show},
    {Object::Fault, Verb::Show, fault_show},
    {Object::Fault, Verb::Set, fault_set},
    {Object::Fault, Verb::Clear, fault_clear},
    {Object::Config, Verb::Show, config_show},
    {Object::Config, Verb::Set, config_set},
    {Object::Bench, Verb::Show, bench_show},
};
// clang-format on

const Handler &find_handler(const Command &cmd)
{
    for (const Handler &h : handlers) {
        if (h.object == cmd.object && h.verb == cmd.verb)
            return h;
    }
    throw std::logic_error("no handler for a parsed command");
}

void print_warnings(Client *client, std::ostream &err)
{
    if (!client)
        return;
    for (const std::string &warning : client->take_warnings())
        err << "rdmactl: warning: " << warning << '\n';
}

int execute(const Command &cmd, std::ostream &out, std::ostream &err,
            const ClientFactory &make_client)
{
    const Handler &handler = find_handler(cmd);
    std::unique_ptr<Client> client;
    try {
        client = make_client();
        handler.fn(cmd, *client, out);
        print_warnings(client.get(), err);
    } catch (const Error &e) {
        print_warnings(client.get(), err);
        err << "rdmactl: " << e.what() << '\n';
        return exit_error;
    }
    return exit_ok; // run() checks that the output was written
}

// The values of a completion placeholder, from the kernel. Completion
// must never complain: without the module there are none.
std::vector<std::string> lookup_values(const std::string &placeholder,
                                       const ClientFactory &make_client)
{
    std::vector<std::string> values;
    if (placeholder == "POINT") {
        for (uint32_t p = 0; p <= fault_point_last; p++)
            values.push_back(fault_point_name(p));
        return values;
    }
    if (placeholder == "TUNABLE") {
        for (const Tunable &t : tunables())
            values.push_back(t.name);
        return values;
    }
    try {
        std::unique_ptr<Client> client = make_client();
        if (placeholder == "DEV") {
            for (const Device &dev : client->list_devices())
                values.push_back(dev.name);
        } else if (placeholder == "TRANSPORT" || placeholder == "LISTENER") {
            std::vector<Transport> list = placeholder == "TRANSPORT"
                                              ? client->list_transports()
                                              : client->list_listeners();
            for (const Transport &t : list)
                values.push_back(std::to_string(t.id));
        } else if (placeholder == "BENCH") {
            for (const Bench &b : client->list_benches())
                values.push_back(std::to_string(b.id));
        }
    } catch (const std::exception &) {
        values.clear();
    }
    return values;
}

// rdmactl __complete CWORD WORD...: one candidate a line for WORD[CWORD]
// (counted from 0, the word after "rdmactl").
int run_complete(int argc, const char *const *argv, std::ostream &out,
                 const ClientFactory &make_client)
{
    if (argc < 3)
        return exit_usage;
    size_t cword;
    try {
        size_t used;
        cword = std::stoul(argv[2], &used);
        if (used != std::string(argv[2]).size())
            return exit_usage;
    } catch (const std::exception &) {
        return exit_usage;
    }
    std::vector<std::string> words(argv + 3, argv + argc);
    if (cword > words.size())
        return exit_usage;
    auto lookup = [&make_client](const std::string &placeholder) {
        return lookup_values(placeholder, make_client);
    };
    for (const std::string &candidate : complete(words, cword, lookup))
        out << candidate << '\n';
    return exit_ok;
}

int dispatch(int argc, const char *const *argv, std::ostream &out, std::ostream &err,
             const ClientFactory &make_client, const EventSourceFactory &make_source)
{
    if (argc >= 2 && std::string(argv[1]) == complete_command)
        return run_complete(argc, argv, out, make_client);

    Command cmd;
    try {
        cmd = parse_command_line(argc, argv);
    } catch (const UsageError &e) {
        err << "rdmactl: " << e.what() << "\nTry 'rdmactl help' for more information.\n";
        return exit_usage;
    }

    switch (cmd.action) {
    case Action::Version:
        out << "rdmactl " RDMACTL_VERSION "\n";
        return exit_ok;
    case Action::Help:
        out << usage(cmd.object);
        return exit_ok;
    case Action::Run:
        break;
    }
    try {
        if (cmd.object == Object::Ping) // no netlink: RPC-over-RDMA itself
            return run_ping(cmd.ping, cmd.output, out, err, connect_rdma);
        if (cmd.object == Object::Monitor)
            return run_monitor(cmd.monitor, cmd.output, out, err, make_source);
        if (cmd.object == Object::Bench && cmd.verb == Verb::Run) {
            BenchWaitOptions wait;
            // The bar only ever goes to a terminal.
            wait.progress = &err == &std::cerr && isatty(STDERR_FILENO);
            return run_bench(cmd.bench.value(), cmd.output, out, err, make_client, make_source,
                             wait);
        }
        return execute(cmd, out, err, make_client);
    } catch (const std::exception &e) {
        // Not expected (e.g. out of memory); still no crash.
        err << "rdmactl: " << e.what() << '\n';
        return exit_error;
    }
}

} // namespace

int finish_output(std::ostream &out, std::ostream &err, int rc)
{
    errno = 0;
    out.flush();
    // A command that failed has said why already.
    if (out || rc != exit_ok)
        return rc;
    int saved = errno;
    err << "rdmactl: cannot write the output";
    if (saved)
        err << ": " << std::strerror(saved);
    err << '\n';
    return exit_error;
}

int run(int argc, const char *const *argv, std::ostream &out, std::ostream &err,
        const ClientFactory &make_client, const EventSourceFactory &make_source)
{
    return finish_output(out, err, dispatch(argc, argv, out, err, make_client, make_source));
}

} // namespace rdmactl
