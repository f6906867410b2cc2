#include "host/errors.hpp"

#include <gtest/gtest.h>

#include <string>

namespace bs {
namespace {

// quoted_text: how a name, word or line from a file shows in a message (skeleton, PLY and baseline
// messages share it).

TEST(Errors, QuotedTextKeepsPlainAscii) {
    EXPECT_EQ(quoted_text("LeftUpLeg"), "\"LeftUpLeg\"");
    EXPECT_EQ(quoted_text("a b_c-1.5 ~"), "\"a b_c-1.5 ~\"");
    EXPECT_EQ(quoted_text(""), "\"\"");
    EXPECT_EQ(quoted_text("plx", '\''), "'plx'");
}

TEST(Errors, QuotedTextEscapesControlCharactersAndNul) {
    EXPECT_EQ(quoted_text(std::string("e\0l\x1b[31m", 8)), "\"e\\x00l\\x1B[31m\"");
    EXPECT_EQ(quoted_text("three\rpoints\n\t"), "\"three\\x0Dpoints\\x0A\\x09\"");
    EXPECT_EQ(quoted_text("del\x7f"), "\"del\\x7F\"");
    // A C1 control (U+009B, a terminal's one-byte CSI), UTF-8 though it is: both of its bytes.
    EXPECT_EQ(quoted_text("a\xC2\x9B" "b"), "\"a\\xC2\\x9Bb\"");
}

// A name that holds the quote or a backslash reads back unambiguously: a"b is not shown as "a"b", nor a
// name spelling out \x1B as an escape character. Marks that reorder a line (U+202E, right-to-left
// override) and line separators (U+2028) are shown as their bytes.
TEST(Errors, QuotedTextEscapesTheQuoteTheBackslashAndWhatReordersALine) {
    EXPECT_EQ(quoted_text("a\"b"), "\"a\\x22b\"");
    EXPECT_EQ(quoted_text("a'b", '\''), "'a\\x27b'");
    EXPECT_EQ(quoted_text("a'b"), "\"a'b\"");  // the other quote is plain text
    EXPECT_EQ(quoted_text("\\x1B"), "\"\\x5Cx1B\"");
    EXPECT_EQ(quoted_text("abc\u202Egpj.exe"), "\"abc\\xE2\\x80\\xAEgpj.exe\"");
    EXPECT_EQ(quoted_text("line\u2028two"), "\"line\\xE2\\x80\\xA8two\"");
    EXPECT_EQ(quoted_text("\u2066x\u2069"), "\"\\xE2\\x81\\xA6x\\xE2\\x81\\xA9\"");
}

TEST(Errors, QuotedTextEscapesBytesThatAreNotUtf8) {
    EXPECT_EQ(quoted_text("Wirbels\xE4ule"), "\"Wirbels\\xE4ule\"");  // Latin-1
    EXPECT_EQ(quoted_text("\xFF\xFE"), "\"\\xFF\\xFE\"");
    EXPECT_EQ(quoted_text("\xC3"), "\"\\xC3\"");              // a sequence cut short by the end
    EXPECT_EQ(quoted_text("\xC0\xAF"), "\"\\xC0\\xAF\"");      // an overlong '/'
    EXPECT_EQ(quoted_text("\xED\xA0\x80"), "\"\\xED\\xA0\\x80\"");  // a surrogate (U+D800)
    EXPECT_EQ(quoted_text("x\x80y"), "\"x\\x80y\"");           // a lone continuation byte
}

TEST(Errors, QuotedTextKeepsUtf8) {
    EXPECT_EQ(quoted_text("Wirbelsäule"), "\"Wirbelsäule\"");
    EXPECT_EQ(quoted_text("頭 🙂"), "\"頭 🙂\"");
    EXPECT_EQ(quoted_text("Hüfte\xE4"), "\"Hüfte\\xE4\"");  // kept where it is UTF-8, escaped where not
}

TEST(Errors, QuotedTextCutsALongTextAt40Characters) {
    const std::string forty(40, 'a');
    EXPECT_EQ(quoted_text(forty), "\"" + forty + "\"");
    EXPECT_EQ(quoted_text(forty + "b"), "\"" + forty + "...\"");
    EXPECT_EQ(quoted_text(std::string(5000, 'x'), '\''), "'" + std::string(40, 'x') + "...'");
    // Characters, not bytes: 40 two-byte 'ä' are kept whole, and an escaped byte counts as one.
    std::string umlauts;
    for (int i = 0; i < 41; ++i) umlauts += "ä";
    EXPECT_EQ(quoted_text(umlauts), "\"" + umlauts.substr(0, 80) + "...\"");
    EXPECT_EQ(quoted_text(std::string(39, 'a') + "\x01\x02"), "\"" + std::string(39, 'a') + "\\x01...\"");
}

// shown_source: the name an embedder gives its data, as messages begin with it. A plain name, quotes and
// backslashes included (the name stands before a colon, not between quotes), is kept as it is; one with a
// control character or bytes that are not UTF-8 is shown as quoted_text shows it.
TEST(Errors, ShownSourceKeepsAPlainName) {
    EXPECT_EQ(shown_source("my points"), "my points");
    EXPECT_EQ(shown_source("/data/scan 3.ply"), "/data/scan 3.ply");
    EXPECT_EQ(shown_source("the \"left\" arm"), "the \"left\" arm");
    EXPECT_EQ(shown_source("C:\\scans\\arm"), "C:\\scans\\arm");
    EXPECT_EQ(shown_source("Wirbelsäule 頭"), "Wirbelsäule 頭");
    EXPECT_EQ(shown_source(std::string(300, 'a')), std::string(300, 'a'));  // not cut: a long path stays whole
    EXPECT_EQ(shown_source(""), "");
}

TEST(Errors, ShownSourceQuotesANameWithControlCharactersOrBytesThatAreNotUtf8) {
    EXPECT_EQ(shown_source("my\npoints\x1b[31m"), "\"my\\x0Apoints\\x1B[31m\"");
    EXPECT_EQ(shown_source("a \"b\"\r"), "\"a \\x22b\\x22\\x0D\"");  // quoted, its quotes are escaped
    EXPECT_EQ(shown_source("abc\u202Egpj"), "\"abc\\xE2\\x80\\xAEgpj\"");
    EXPECT_EQ(shown_source("Wirbels\xE4ule"), "\"Wirbels\\xE4ule\"");
    EXPECT_EQ(shown_source(std::string("e\0l", 3)), "\"e\\x00l\"");
    // Not cut either: the end of a long path names the file, and the character escaped may lie there.
    const std::string path = "/data/scans/2026-12-08/session_04/subject_17/take\n3.ply";
    EXPECT_EQ(shown_source(path), "\"/data/scans/2026-12-08/session_04/subject_17/take\\x0A3.ply\"");
}

// The API's functions hand a name on to one another (a skinner to its skeleton's check): shown twice, it
// is shown once.
TEST(Errors, ShownSourceShowsAShownNameAsItIs) {
    for (const char* name : {"my\npoints", "a \"b\"\r", "Wirbels\xE4ule", "plain"}) {
        const std::string once = shown_source(name);
        EXPECT_EQ(shown_source(once), once) << name;
        EXPECT_EQ(shown_source("the skeleton of " + once), "the skeleton of " + once) << name;
    }
}

}  // namespace
}  // namespace bs
