// Pieces of the server that need no socket: flags, identifiers, static file resolution and the
// HTTP request handler.
#include <gtest/gtest.h>

#include <fstream>
#include <set>

#include "server/flags.h"
#include "server/lobby/ids.h"
#include "server/net/http_session.h"
#include "server/net/static_files.h"
#include "test_support.h"

namespace plateau::server {
namespace {

namespace http = boost::beast::http;

TEST(FlagsTest, DefaultsAndBothSyntaxes) {
  auto f = ParseFlags({});
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f->bind, "0.0.0.0");
  EXPECT_EQ(f->port, 8080);
  EXPECT_EQ(f->db, "plateau.db");
  EXPECT_EQ(f->static_dir, "clients/web/dist");
  EXPECT_EQ(f->threads, 2);
  EXPECT_EQ(f->max_message_bytes, 64u * 1024);
  EXPECT_EQ(f->max_queue_bytes, 4u * 1024 * 1024);
  EXPECT_EQ(f->durability, "machine");

  f = ParseFlags({"--durability=process"});
  ASSERT_TRUE(f.ok()) << f.status().ToString();
  EXPECT_EQ(f->durability, "process");

  f = ParseFlags({"--port", "9000", "--threads=4", "--db=/tmp/x.db", "--log-level", "debug",
                  "--max-queue-bytes", "2048", "--idle-timeout-seconds=10", "--help"});
  ASSERT_TRUE(f.ok()) << f.status().ToString();
  EXPECT_EQ(f->port, 9000);
  EXPECT_EQ(f->threads, 4);
  EXPECT_EQ(f->db, "/tmp/x.db");
  EXPECT_EQ(f->log_level, "debug");
  EXPECT_EQ(f->max_queue_bytes, 2048u);
  EXPECT_EQ(f->idle_timeout_seconds, 10);
  EXPECT_TRUE(f->help);
}

TEST(FlagsTest, RefusesBadInput) {
  EXPECT_EQ(ParseFlags({"--port", "70000"}).status().code(), "bad_flag");
  EXPECT_EQ(ParseFlags({"--port", "12x"}).status().code(), "bad_flag");
  EXPECT_EQ(ParseFlags({"--threads", "0"}).status().code(), "bad_flag");
  EXPECT_EQ(ParseFlags({"--nope", "1"}).status().code(), "bad_flag");
  EXPECT_EQ(ParseFlags({"--port"}).status().code(), "bad_flag");
  EXPECT_EQ(ParseFlags({"stray"}).status().code(), "bad_flag");
  EXPECT_EQ(ParseFlags({"--log-level", "loud"}).status().code(), "bad_flag");
  EXPECT_EQ(ParseFlags({"--durability", "hope"}).status().code(), "bad_flag");
  EXPECT_NE(FlagsHelp().find("--max-queue-bytes"), std::string::npos);
}

TEST(IdsTest, JoinCodesUseTheUnambiguousAlphabet) {
  std::set<std::string> seen;
  for (int i = 0; i < 200; ++i) {
    const std::string code = NewJoinCode();
    EXPECT_TRUE(IsJoinCode(code)) << code;
    EXPECT_EQ(code.find_first_of("O0I1L"), std::string::npos) << code;
    seen.insert(code);
  }
  EXPECT_GT(seen.size(), 190u);  // 31^6 codes: a repeat in 200 draws is very unlikely
  EXPECT_FALSE(IsJoinCode("ABCDE"));
  EXPECT_FALSE(IsJoinCode("ABCDE0"));
}

TEST(IdsTest, TokensAre128BitHexAndDistinct) {
  const std::string a = NewToken(), b = NewToken();
  EXPECT_EQ(a.size(), 32u);
  EXPECT_EQ(a.find_first_not_of("0123456789abcdef"), std::string::npos);
  EXPECT_NE(a, b);
  EXPECT_NE(NewRoomId(), NewRoomId());
}

class StaticFilesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Write("index.html", "<html>app</html>");
    std::filesystem::create_directories(dir_.path() / "root" / "assets");
    Write("assets/app.js", "console.log(1)");
    Write("assets/style.css", "body{}");
    Write("../secret.txt", "secret");  // beside the root: must never be served
  }
  void Write(const std::string& rel, const std::string& text) {
    std::ofstream(dir_.path() / "root" / rel) << text;
  }
  std::string root() const { return (dir_.path() / "root").string(); }

  struct Dir {
    Dir() { std::filesystem::create_directories(tmp.path() / "root"); }
    const std::filesystem::path& path() const { return tmp.path(); }
    testing::TempDir tmp;
  } dir_;
};

TEST_F(StaticFilesTest, ResolvesFilesIndexAndSpaFallback) {
  auto t = ResolveStatic(root(), "/");
  EXPECT_EQ(t.kind, StaticTarget::Kind::kFile);
  EXPECT_EQ(t.path, root() + "/index.html");
  t = ResolveStatic(root(), "/assets/app.js?v=2");
  EXPECT_EQ(t.kind, StaticTarget::Kind::kFile);
  EXPECT_EQ(t.path, root() + "/assets/app.js");
  t = ResolveStatic(root(), "/room/r123");  // client-side route
  EXPECT_EQ(t.kind, StaticTarget::Kind::kFile);
  EXPECT_EQ(t.path, root() + "/index.html");
  EXPECT_EQ(ResolveStatic(root(), "/assets/missing.js").kind, StaticTarget::Kind::kNotFound);
}

TEST_F(StaticFilesTest, RefusesTraversal) {
  for (const char* bad : {"/../secret.txt", "/assets/../../secret.txt", "/%2e%2e/secret.txt",
                          "/assets/%2E%2E/%2e%2e/secret.txt", "/a\\..\\secret.txt", "/%00",
                          "relative", "/%zz"}) {
    EXPECT_EQ(ResolveStatic(root(), bad).kind, StaticTarget::Kind::kBadPath) << bad;
  }
}

TEST(MimeTypeTest, KnownAndUnknownExtensions) {
  EXPECT_EQ(MimeType("/x/index.html"), "text/html; charset=utf-8");
  EXPECT_EQ(MimeType("a.JS"), "text/javascript; charset=utf-8");
  EXPECT_EQ(MimeType("a.css"), "text/css; charset=utf-8");
  EXPECT_EQ(MimeType("a.svg"), "image/svg+xml");
  EXPECT_EQ(MimeType("a.wasm"), "application/wasm");
  EXPECT_EQ(MimeType("a.woff2"), "font/woff2");
  EXPECT_EQ(MimeType("dir.d/noext"), "application/octet-stream");
}

http::response<http::string_body> Serve(const NetLimits& limits, http::verb verb,
                                        const std::string& target) {
  http::request<http::string_body> req{verb, target, 11};
  http::message_generator gen = HandleHttpRequest(limits, std::move(req));
  // Serialize the generated message and parse it back, as a client would see it.
  std::string wire;
  boost::beast::error_code ec;
  while (true) {
    auto buffers = gen.prepare(ec);
    if (ec || boost::asio::buffer_size(buffers) == 0) break;
    for (auto b : boost::beast::buffers_range(buffers)) {
      wire.append(static_cast<const char*>(b.data()), b.size());
    }
    gen.consume(boost::asio::buffer_size(buffers));
    if (gen.is_done()) break;
  }
  http::response_parser<http::string_body> parser;
  parser.skip(verb == http::verb::head);
  size_t offset = 0;
  while (!parser.is_done() && offset < wire.size()) {
    offset += parser.put(boost::asio::buffer(wire.data() + offset, wire.size() - offset), ec);
    if (ec) break;
  }
  EXPECT_TRUE(parser.is_done()) << ec.message() << "\n" << wire;
  return parser.release();
}

TEST_F(StaticFilesTest, HttpHandlerServesHealthFilesAndErrors) {
  NetLimits limits;
  limits.static_dir = root();
  auto res = Serve(limits, http::verb::get, "/healthz");
  EXPECT_EQ(res.result(), http::status::ok);
  EXPECT_EQ(res.body(), R"({"status":"ok"})");
  EXPECT_EQ(res[http::field::content_type], "application/json");

  res = Serve(limits, http::verb::get, "/assets/app.js");
  EXPECT_EQ(res.result(), http::status::ok);
  EXPECT_EQ(res.body(), "console.log(1)");
  EXPECT_EQ(res[http::field::content_type], "text/javascript; charset=utf-8");

  res = Serve(limits, http::verb::get, "/join/ABCDEF");
  EXPECT_EQ(res.result(), http::status::ok);
  EXPECT_EQ(res.body(), "<html>app</html>");

  res = Serve(limits, http::verb::head, "/assets/style.css");
  EXPECT_EQ(res.result(), http::status::ok);
  EXPECT_EQ(res[http::field::content_length], "6");

  EXPECT_EQ(Serve(limits, http::verb::get, "/../secret.txt").result(), http::status::bad_request);
  EXPECT_EQ(Serve(limits, http::verb::get, "/nope.png").result(), http::status::not_found);
  EXPECT_EQ(Serve(limits, http::verb::post, "/").result(), http::status::method_not_allowed);
  EXPECT_EQ(Serve(limits, http::verb::get, "/ws").result(), http::status::upgrade_required);
}

}  // namespace
}  // namespace plateau::server
