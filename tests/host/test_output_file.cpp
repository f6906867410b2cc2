#include "host/output_file.hpp"

#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "host/errors.hpp"
#include "host/json_io.hpp"
#include "tests/support/message_of.hpp"
#include "tests/support/temp_file.hpp"

namespace bs {
namespace {

namespace fs = std::filesystem;

std::string content_of(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Files beside `path` whose names start with its own: the target and any temporary left behind.
int files_named_like(const std::string& path) {
    const fs::path p(path);
    int count = 0;
    for (const auto& entry : fs::directory_iterator(p.parent_path()))
        // A temporary is ".NAME.PID-N.part", NAME cut to 64 characters.
        for (const std::string& start : {p.filename().string(), "." + p.filename().string().substr(0, 64)})
            if (entry.path().filename().string().rfind(start, 0) == 0) ++count;
    return count;
}

// `text` written to `path` through an OutputFile, committed.
void write_whole(const std::string& path, const std::string& text) {
    OutputFile out(path);
    out.write(text);
    out.commit();
}

// The IoError's message of `write` run while the process may write files of at most 4 kB (RLIMIT_FSIZE,
// which stops a write as a full disk would; SIGXFSZ ignored, so that the write fails instead of the
// process). Both are restored however `write` ends.
std::string message_of_a_write_beyond_4kB(const std::function<void()>& write) {
    struct SmallFiles {
        rlimit before{};
        void (*previous)(int) = SIG_DFL;
        bool limited = false;
        SmallFiles() {
            if (getrlimit(RLIMIT_FSIZE, &before) != 0) return;
            rlimit small = before;
            small.rlim_cur = 4096;
            previous = std::signal(SIGXFSZ, SIG_IGN);
            limited = setrlimit(RLIMIT_FSIZE, &small) == 0;
        }
        ~SmallFiles() {
            if (limited) setrlimit(RLIMIT_FSIZE, &before);
            std::signal(SIGXFSZ, previous);
        }
    } guard;
    if (!guard.limited) {
        ADD_FAILURE() << "the file-size limit could not be set";
        return "";
    }
    try {
        return testing::message_of<IoError>(write);
    } catch (const std::exception& e) {
        ADD_FAILURE() << "another exception: " << e.what();
        return "";
    }
}

TEST(OutputFile, CommitPutsTheWholeFileInPlace) {
    const std::string path = testing::write_temp("out.txt", "old");
    {
        OutputFile out(path);
        out.write("new ");
        EXPECT_EQ(content_of(path), "old");  // nothing shows before the commit
        out.write("content");
        out.commit();
    }
    EXPECT_EQ(content_of(path), "new content");
    EXPECT_EQ(files_named_like(path), 1);
}

TEST(OutputFile, AnAbandonedFileLeavesTheTargetAsItWas) {
    const std::string path = testing::write_temp("out.txt", "old");
    const std::string fresh = testing::temp_path("fresh.txt");
    try {
        OutputFile out(path), other(fresh);
        out.write("half of it");
        other.write("half of it");
        throw InputError("the content could not be made");
    } catch (const InputError&) {
    }
    EXPECT_EQ(content_of(path), "old");
    EXPECT_EQ(files_named_like(path), 1);
    EXPECT_FALSE(fs::exists(fresh));
    EXPECT_EQ(files_named_like(fresh), 0);
}

// Files that belong together (commit_together) whose replacement fails part way: a target turned into a
// folder with something in it after it was opened, which no file can be renamed over. Failing at the first
// file, none is replaced; at a later one, the earlier set's files from there on are removed (they belong
// to the set that was replaced in part).
struct ThreeFiles {
    std::string paths[3];
    ThreeFiles() {
        for (int i = 0; i < 3; ++i) paths[i] = testing::write_temp("set" + std::to_string(i) + ".txt", "old " + std::to_string(i));
    }
    // Commits new content to the three, the target `blocked` turned into a folder first; the IoError's
    // message, empty where none was thrown.
    std::string commit_with_blocked(int blocked) {
        OutputFile a(paths[0]), b(paths[1]), c(paths[2]);
        OutputFile* files[3] = {&a, &b, &c};
        for (int i = 0; i < 3; ++i) files[i]->write("new " + std::to_string(i));
        fs::remove(paths[blocked]);
        fs::create_directories(fs::path(paths[blocked]) / "inside");
        try {
            commit_together({&a, &b, &c});
        } catch (const IoError& e) {
            return e.what();
        }
        return "";
    }
};

TEST(OutputFile, ASetThatCannotReplaceItsFirstFileReplacesNone) {
    ThreeFiles set;
    EXPECT_NE(set.commit_with_blocked(0), "");
    EXPECT_EQ(content_of(set.paths[1]), "old 1");
    EXPECT_EQ(content_of(set.paths[2]), "old 2");
    for (const std::string& path : set.paths) EXPECT_EQ(files_named_like(path), 1) << path;
}

// The third is a link to a file shared with others: the link is removed, not the file, and the message
// names what was removed.
TEST(OutputFile, ASetReplacedInPartLeavesNoFileOfTheEarlierSet) {
    ThreeFiles set;
    const std::string shared = testing::write_temp("shared.txt", "shared");
    fs::remove(set.paths[2]);
    fs::create_symlink(shared, set.paths[2]);
    const std::string message = set.commit_with_blocked(1);
    EXPECT_NE(message.find("; removed " + set.paths[2] + " of the earlier set"), std::string::npos) << message;
    EXPECT_EQ(content_of(set.paths[0]), "new 0");
    EXPECT_FALSE(fs::exists(fs::symlink_status(set.paths[2])));
    EXPECT_EQ(files_named_like(set.paths[2]), 0);
    EXPECT_EQ(content_of(shared), "shared");
}

// A file that cannot be written whole (here: larger than the process may write, RLIMIT_FSIZE, as a full
// disk would) is refused with the system's reason, and the file that was there keeps its content: the
// writers used to remove the target on failure, even a file that was the run's own input.
TEST(OutputFile, AFailedWriteKeepsTheFileThatWasThere) {
    const std::string path = testing::write_temp("out.txt", "old");
    const std::string message = message_of_a_write_beyond_4kB([&] {
        OutputFile out(path);
        out.write(std::string(1 << 16, 'x'));
        out.commit();
    });
    EXPECT_NE(message.find(path + ": write failed (File too large)"), std::string::npos) << message;
    EXPECT_EQ(content_of(path), "old");
    EXPECT_EQ(files_named_like(path), 1);
}

// A device is written in place and never removed (as root, a failed write used to delete /dev/full).
TEST(OutputFile, ADeviceIsWrittenInPlaceAndKept) {
    if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
    const std::string message = testing::message_of<IoError>([] {
        OutputFile out("/dev/full");
        out.write("x");
        out.commit();
    });
    EXPECT_NE(message.find("/dev/full: write failed (No space left on device)"), std::string::npos) << message;
    EXPECT_TRUE(fs::is_character_file("/dev/full"));
}

// Written over in place (a file mounted on its own, a writable file in a folder the process may not
// write): the new content's space is reserved first, so a disk that cannot hold it leaves the old content
// whole. (Copied by std::filesystem::copy_file, the file was cut to nothing, then written up to the limit:
// a bind-mounted input points file lost its rows.)
TEST(OutputFile, ACopyOverThatCannotHaveItsSpaceLeavesTheOldContent) {
    const std::string target = testing::write_temp("mounted.ply", "old content");
    const std::string bytes = testing::write_temp("new.ply", std::string(1 << 16, 'x'));
    const std::string message = message_of_a_write_beyond_4kB([&] { copy_over(bytes, target); });
    EXPECT_NE(message.find(target + ": cannot write the new content over it (File too large)"), std::string::npos) << message;
    EXPECT_EQ(content_of(target), "old content");
    copy_over(testing::write_temp("short.ply", "new"), target);  // a shorter content: the file is cut to it
    EXPECT_EQ(content_of(target), "new");
}

// A writable file in a folder the process may not write: its bytes go to a temporary elsewhere, so the
// file keeps its content until the commit, and an abandoned write leaves it as it was (it was opened
// and cut at once: bench emptied its old results at start, a failed write cut an input in the same folder).
// Run as another user when the test runs as root, whom every folder lets write.
TEST(OutputFile, AFileInAFolderThatTakesNoTemporaryKeepsItsContentUntilTheCommit) {
    const std::string folder = testing::temp_path("locked");
    fs::create_directories(folder);
    const std::string path = folder + "/results.json";
    std::ofstream(path) << "old";
    fs::permissions(path, fs::perms::all & ~(fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec));
    fs::permissions(folder, fs::perms::owner_read | fs::perms::owner_exec | fs::perms::group_read | fs::perms::group_exec |
                                fs::perms::others_read | fs::perms::others_exec);
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        if (::geteuid() == 0 && (::setgid(65534) != 0 || ::setuid(65534) != 0)) ::_exit(10);
        int stage = 1;
        try {
            {
                OutputFile abandoned(path);
                abandoned.write("half of it");
                if (content_of(path) != "old") ::_exit(11);
            }
            if (content_of(path) != "old") ::_exit(12);
            stage = 2;
            write_whole(path, "new");
            ::_exit(content_of(path) == "new" ? 0 : 13);
        } catch (const std::exception&) {
            ::_exit(20 + stage);
        }
    }
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    fs::permissions(folder, fs::perms::owner_all);
    ASSERT_TRUE(WIFEXITED(status));
    if (WEXITSTATUS(status) == 10) GTEST_SKIP() << "no other user to run as";
    EXPECT_EQ(WEXITSTATUS(status), 0) << "11: cut at once, 12: cut when abandoned, 13: not written, 21/22: refused";
    EXPECT_EQ(content_of(path), "new");
}

// A run stopped by a signal (Ctrl-C, a kill) while it writes leaves no temporary behind: `animate` left
// hidden ".frame_00036.ply.PID-N.part" files of megabytes. The process still ends by that signal.
TEST(OutputFile, ASignalRemovesTheTemporariesAndStillEndsTheProcess) {
    const std::string folder = testing::temp_path("stopped");
    fs::remove_all(folder);  // what a failed run of this test left
    fs::create_directories(folder);
    const std::string path = folder + "/frame.ply", other_path = folder + "/other.ply";
    std::ofstream(path) << "old";
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        remove_temporaries_on_signals();
        OutputFile out(path), other(other_path);
        out.write("half of it");
        if (files_named_like(path) != 2) ::_exit(1);  // the target and its temporary
        ::raise(SIGTERM);
        ::_exit(2);
    }
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFSIGNALED(status)) << "exit " << WEXITSTATUS(status);
    EXPECT_EQ(WTERMSIG(status), SIGTERM);
    EXPECT_EQ(content_of(path), "old");
    EXPECT_EQ(files_named_like(path), 1);
    EXPECT_EQ(files_named_like(other_path), 0);
    // A signal the process was started to ignore (nohup, a script's background job) stays ignored.
    const pid_t ignoring = ::fork();
    ASSERT_GE(ignoring, 0);
    if (ignoring == 0) {
        std::signal(SIGHUP, SIG_IGN);
        remove_temporaries_on_signals();
        ::raise(SIGHUP);
        ::_exit(0);
    }
    ASSERT_EQ(::waitpid(ignoring, &status, 0), ignoring);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "ended by SIGHUP, which it ignored";
}

TEST(OutputFile, ASymbolicLinkKeepsPointingAtTheNewFile) {
    const std::string file = testing::write_temp("file.txt", "old"), link = testing::temp_path("link.txt");
    fs::create_symlink(file, link);
    write_whole(link, "new");
    EXPECT_TRUE(fs::is_symlink(link));
    EXPECT_EQ(content_of(file), "new");
}

TEST(OutputFile, ADanglingLinkGetsItsFile) {
    const std::string file = testing::temp_path("made.txt"), link = testing::temp_path("dangling.txt");
    fs::create_symlink(fs::path(file).filename(), link);  // relative, as ln -s writes it
    write_whole(link, "new");
    EXPECT_TRUE(fs::is_symlink(link));
    EXPECT_EQ(content_of(file), "new");
}

// The replaced file keeps its permissions (a private file stays private), whatever the umask.
TEST(OutputFile, TheReplacedFileKeepsItsPermissions) {
    const std::string path = testing::write_temp("private.txt", "old");
    fs::permissions(path, fs::perms::owner_read | fs::perms::owner_write);
    write_whole(path, "new");
    EXPECT_EQ(content_of(path), "new");
    EXPECT_EQ(fs::status(path).permissions() & fs::perms::all, fs::perms::owner_read | fs::perms::owner_write);
}

// The temporary's name stays short: a target whose own name is near the file system's limit (255 bytes)
// is written (a temporary named after the whole of it was too long).
TEST(OutputFile, ATargetWithALongNameIsWritten) {
    const std::string path = testing::temp_path(std::string(200, 'n') + ".ply");
    ASSERT_LT(fs::path(path).filename().string().size(), 256u);
    write_whole(path, "new");
    EXPECT_EQ(content_of(path), "new");
}

TEST(OutputFile, AFolderOrAMissingFolderIsRefusedByTheTargetsName) {
    const std::string folder = testing::temp_path("folder");
    fs::create_directories(folder);
    EXPECT_NE(testing::message_of<IoError>([&] { OutputFile out(folder); }).find(folder + ": cannot open for writing (it is a directory)"),
              std::string::npos);
    const std::string missing = testing::temp_path("missing") + "/out.txt";
    EXPECT_NE(testing::message_of<IoError>([&] { OutputFile out(missing); }).find(missing + ": cannot open for writing (No such file or directory)"),
              std::string::npos);
}

// The writers go through it: a JSON save that cannot be written whole leaves the old file.
TEST(OutputFile, AJsonSaveThatFailsLeavesTheOldFile) {
    const std::string path = testing::write_temp("doc.json", "{\"old\": true}\n");
    const std::string message =
        message_of_a_write_beyond_4kB([&] { json_io::save(path, json_io::json(std::string(1 << 16, 'x'))); });
    EXPECT_NE(message.find(path + ": write failed (File too large)"), std::string::npos) << message;
    EXPECT_EQ(content_of(path), "{\"old\": true}\n");
    EXPECT_EQ(files_named_like(path), 1);
}

}  // namespace
}  // namespace bs
