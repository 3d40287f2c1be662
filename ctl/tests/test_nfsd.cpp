// SPDX-License-Identifier: GPL-2.0
// Adding an nfsd listener through a stand-in for /proc/fs/nfsd: a temporary
// directory with the files nfsd would have.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "errors.hpp"
#include "nfsd.hpp"

using namespace rdmactl;
namespace fs = std::filesystem;

namespace {

class Nfsd : public ::testing::Test {
protected:
    fs::path dir;

    void SetUp() override
    {
        std::string tmpl = (fs::temp_directory_path() / "rdmactl-nfsd-XXXXXX").string();
        ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
        dir = tmpl;
        write("threads", "8\n");
        write("portlist", "");
    }

    void TearDown() override { fs::remove_all(dir); }

    void write(const std::string &name, const std::string &text)
    {
        std::ofstream(dir / name) << text;
    }

    std::string read(const std::string &name)
    {
        std::ifstream in(dir / name);
        std::stringstream text;
        text << in.rdbuf();
        return text.str();
    }

    // The message of the Error that adding throws; fails the test if none.
    std::string add_error(const std::string &cls = "xrdma", uint16_t port = 20050)
    {
        try {
            nfsd_add_listener(cls, port, dir.string());
        } catch (const Error &e) {
            return e.what();
        }
        ADD_FAILURE() << "no error";
        return {};
    }
};

TEST_F(Nfsd, WritesClassAndPortToPortlist)
{
    nfsd_add_listener("xrdma", 20050, dir.string());
    EXPECT_EQ(read("portlist"), "xrdma 20050\n");
}

TEST_F(Nfsd, NotRunningWithoutThreads)
{
    write("threads", "0\n");
    EXPECT_EQ(add_error(),
              "nfsd is not running (" + dir.string() + "/threads is 0): start it first");
    EXPECT_EQ(read("portlist"), "");
}

TEST_F(Nfsd, NotRunningWithoutItsFileSystem)
{
    fs::remove(dir / "threads");
    EXPECT_EQ(add_error(), "nfsd is not running: cannot open " + dir.string() +
                               "/threads: No such file or directory (load nfsd and mount its "
                               "file system on " +
                               dir.string() + ")");
}

TEST_F(Nfsd, ThreadsCannotBeOpened)
{
    fs::remove(dir / "threads");
    fs::create_symlink(dir / "loop", dir / "threads");
    fs::create_symlink(dir / "threads", dir / "loop");
    EXPECT_EQ(add_error(),
              "cannot open " + dir.string() + "/threads: Too many levels of symbolic links");
}

TEST_F(Nfsd, GarbledThreads)
{
    write("threads", "many\n");
    EXPECT_EQ(add_error(), "cannot make sense of " + dir.string() + "/threads: 'many\n'");
}

TEST_F(Nfsd, PortlistCannotBeOpened)
{
    fs::remove(dir / "portlist");
    fs::create_directory(dir / "portlist");
    EXPECT_EQ(add_error(), "cannot open " + dir.string() + "/portlist: Is a directory");
}

TEST_F(Nfsd, RefusalIsReportedWithTheRequest)
{
    if (!fs::exists("/dev/full"))
        GTEST_SKIP() << "no /dev/full";
    fs::remove(dir / "portlist");
    fs::create_symlink("/dev/full", dir / "portlist");
    EXPECT_EQ(add_error("rdma", 20049), "nfsd refused 'rdma 20049': No space left on device");
}

} // namespace
