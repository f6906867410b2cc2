// libFuzzer target: the baseskin command line (host/cli/command_line.hpp), one argument per line of the
// input. The parse must end in success or a CLI::ParseError (a bad command line: exit code 1); nothing is
// run, so no file is touched. An accepted --frames of `animate` must give a range within the motion's
// frames, or the documented InputError.
#include <string>
#include <vector>

#include "host/cli/command_line.hpp"
#include "tests/fuzz/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace bs;
    std::vector<std::string> args{"baseskin"};
    std::string arg;
    for (char c : fuzz::bytes_of(data, size)) {
        if (c == '\n') {
            args.push_back(arg);
            arg.clear();
        } else {
            arg += c;
        }
    }
    if (!arg.empty()) args.push_back(arg);
    std::vector<const char*> argv;
    for (const std::string& a : args) argv.push_back(a.c_str());

    cli::CommandLine command_line;
    try {
        command_line.parse(int(argv.size()), argv.data());
    } catch (const CLI::ParseError&) {
        return 0;
    } catch (const std::exception& e) {
        fuzz::finding(std::string("a parse that ended in an exception other than CLI::ParseError: ") + e.what());
    }
    const std::string& frames = command_line.animate().frames;
    if (frames.empty()) return 0;
    constexpr std::size_t kFrames = 100;
    std::pair<std::size_t, std::size_t> range;
    if (fuzz::accepted([&] { range = cli::frame_range(frames, kFrames); }))
        fuzz::require(range.first < range.second && range.second <= kFrames, "a --frames range outside the motion");
    return 0;
}
