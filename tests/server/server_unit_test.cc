// Pieces of the server that need no socket: flags, identifiers, static file resolution and the
// HTTP request handler.
#include <gtest/gtest.h>

#include <fstream>
#include <set>

#include "server/flags.h"
#include "server/lobby/ids.h"
#include "server/net/http_session.h"
#include "server/net/link_relay.h"
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
  EXPECT_EQ(f->commit_interval_us, 2000);
  EXPECT_EQ(f->bot_delay_ms, 600);

  EXPECT_EQ(f->offline_grace_seconds, 60);
  EXPECT_EQ(f->abandoned_game_seconds, 3 * 86400);
  EXPECT_EQ(f->token_inactive_days, 30);

  f = ParseFlags({"--durability=process", "--bot-delay-ms=0", "--offline-grace-seconds=5",
                  "--abandoned-game-seconds", "3600", "--commit-interval-us", "0",
                  "--token-inactive-days", "7"});
  ASSERT_TRUE(f.ok()) << f.status().ToString();
  EXPECT_EQ(f->durability, "process");
  EXPECT_EQ(f->commit_interval_us, 0);
  EXPECT_EQ(f->bot_delay_ms, 0);
  EXPECT_EQ(f->offline_grace_seconds, 5);
  EXPECT_EQ(f->abandoned_game_seconds, 3600);
  EXPECT_EQ(f->token_inactive_days, 7);

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

// --store names a PostgreSQL database instead of the SQLite file; empty, it is refused.
TEST(FlagsTest, TheStoreIsSQLiteUnlessAConnectionStringIsGiven) {
  auto f = ParseFlags({});
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f->store, "");
  f = ParseFlags({"--store", "host=/run/pg dbname=plateau"});
  ASSERT_TRUE(f.ok()) << f.status().ToString();
  EXPECT_EQ(f->store, "host=/run/pg dbname=plateau");
  f = ParseFlags({"--store=postgres://plateau@db/plateau"});
  ASSERT_TRUE(f.ok()) << f.status().ToString();
  EXPECT_EQ(f->store, "postgres://plateau@db/plateau");
  EXPECT_FALSE(ParseFlags({"--store="}).ok());
}

TEST(FlagsTest, ANodeHasANameAndALeaseWithinBounds) {
  auto f = ParseFlags({});
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f->node_id, "");  // HOST:PORT, filled in by main
  EXPECT_EQ(f->lease_ms, 10000);
  f = ParseFlags({"--node-id", "plateau-2", "--lease-ms=3000"});
  ASSERT_TRUE(f.ok()) << f.status().ToString();
  EXPECT_EQ(f->node_id, "plateau-2");
  EXPECT_EQ(f->lease_ms, 3000);
  EXPECT_FALSE(ParseFlags({"--node-id="}).ok());
  EXPECT_FALSE(ParseFlags({"--lease-ms", "999"}).ok());
  EXPECT_FALSE(ParseFlags({"--lease-ms", "600001"}).ok());
}

TEST(FlagsTest, AgonesIsOffUnlessAsked) {
  auto f = ParseFlags({});
  ASSERT_TRUE(f.ok());
  EXPECT_FALSE(f->agones);
  f = ParseFlags({"--agones=true"});
  ASSERT_TRUE(f.ok());
  EXPECT_TRUE(f->agones);
  EXPECT_FALSE(ParseFlags({"--agones", "maybe"}).ok());
}

TEST(FlagsTest, TheLinksNeedAnAddressAndASecretFile) {
  auto f = ParseFlags({"--node-address", "10.0.0.7:8080", "--link-secret-file=/run/secret"});
  ASSERT_TRUE(f.ok()) << f.status().ToString();
  EXPECT_EQ(f->node_address, "10.0.0.7:8080");
  EXPECT_EQ(f->link_secret_file, "/run/secret");
  EXPECT_FALSE(ParseFlags({"--node-address", "nowhere"}).ok());
  EXPECT_FALSE(ParseFlags({"--link-secret-file="}).ok());

  testing::TempDir dir;
  const auto write = [&](const std::string& name, const std::string& text) {
    std::ofstream(dir.File(name), std::ios::binary) << text;
    return dir.File(name);
  };
  auto secret = ReadLinkSecret(write("good", "0123456789abcdef-and-more\n"));
  ASSERT_TRUE(secret.ok()) << secret.status().ToString();
  EXPECT_EQ(secret.value(), "0123456789abcdef-and-more");
  EXPECT_FALSE(ReadLinkSecret(write("short", "too-short\n")).ok());
  EXPECT_FALSE(ReadLinkSecret(write("spaced", "has a space in it, 0123456789")).ok());
  EXPECT_FALSE(ReadLinkSecret(dir.File("absent")).ok());
}

TEST(LinksTest, OnlyTheSecretMakesALinkAndItsClientAddressCountsOnlyThen) {
  http::request<http::string_body> req{http::verb::get, "/ws", 11};
  EXPECT_FALSE(IsLinkRequest(req, "0123456789abcdef"));
  req.set(kLinkSecretHeader, "0123456789abcdeX");
  EXPECT_FALSE(IsLinkRequest(req, "0123456789abcdef"));
  EXPECT_FALSE(IsLinkRequest(req, ""));
  req.set(kLinkSecretHeader, "0123456789abcdef");
  EXPECT_TRUE(IsLinkRequest(req, "0123456789abcdef"));
  EXPECT_EQ(LinkedClientAddress(req, "127.0.0.1"), "127.0.0.1");
  req.set(kLinkClientHeader, "203.0.113.9");
  EXPECT_EQ(LinkedClientAddress(req, "127.0.0.1"), "203.0.113.9");
  req.set(kLinkClientHeader, "not an address");
  EXPECT_EQ(LinkedClientAddress(req, "127.0.0.1"), "127.0.0.1");

  std::string host, port;
  ASSERT_TRUE(SplitHostPort("plateau-1.plateau-nodes:8080", &host, &port));
  EXPECT_EQ(host, "plateau-1.plateau-nodes");
  EXPECT_EQ(port, "8080");
  ASSERT_TRUE(SplitHostPort("[::1]:9000", &host, &port));
  EXPECT_EQ(host, "::1");
  EXPECT_FALSE(SplitHostPort("no-port", &host, &port));
  EXPECT_FALSE(SplitHostPort("host:80a", &host, &port));
  EXPECT_FALSE(SplitHostPort(":80", &host, &port));
}

TEST(FlagsTest, LimitsHaveDefaultsAndCanBeSetOrTurnedOff) {
  auto f = ParseFlags({});
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f->limits.requests_per_second, 200);
  EXPECT_EQ(f->limits.connections_per_ip, 64);
  EXPECT_FALSE(f->limits.limit_loopback);
  f = ParseFlags({"--limit-requests-per-second", "0", "--limit-chat-per-minute=120",
                  "--limit-rooms-per-hour", "5", "--limit-open-rooms", "2",
                  "--limit-wrong-codes", "3", "--limit-ip-wrong-codes", "9",
                  "--limit-ip-connections", "7", "--limit-ip-requests-per-second", "50",
                  "--limit-refusals-before-disconnect", "11", "--limit-loopback", "true"});
  ASSERT_TRUE(f.ok()) << f.status().ToString();
  EXPECT_EQ(f->limits.requests_per_second, 0);
  EXPECT_DOUBLE_EQ(f->limits.chat_per_second, 2);
  EXPECT_EQ(f->limits.rooms_per_hour, 5);
  EXPECT_EQ(f->limits.open_rooms_per_player, 2);
  EXPECT_EQ(f->limits.wrong_codes_per_connection, 3);
  EXPECT_EQ(f->limits.wrong_codes_per_ip, 9);
  EXPECT_EQ(f->limits.connections_per_ip, 7);
  EXPECT_EQ(f->limits.ip_requests_per_second, 50);
  EXPECT_EQ(f->limits.refusals_before_disconnect, 11);
  EXPECT_TRUE(f->limits.limit_loopback);
  EXPECT_EQ(ParseFlags({"--limit-open-rooms", "-1"}).status().code(), "bad_flag");
  EXPECT_EQ(ParseFlags({"--limit-loopback", "maybe"}).status().code(), "bad_flag");
  EXPECT_NE(FlagsHelp().find("--limit-ip-connections"), std::string::npos);
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
  EXPECT_EQ(ParseFlags({"--bot-delay-ms", "-1"}).status().code(), "bad_flag");
  EXPECT_EQ(ParseFlags({"--bot-delay-ms", "60000"}).status().code(), "bad_flag");
  EXPECT_EQ(ParseFlags({"--offline-grace-seconds", "0"}).status().code(), "bad_flag");
  EXPECT_EQ(ParseFlags({"--abandoned-game-seconds", "0"}).status().code(), "bad_flag");
  EXPECT_EQ(ParseFlags({"--token-inactive-days", "0"}).status().code(), "bad_flag");
  EXPECT_EQ(ParseFlags({"--commit-interval-us", "-5"}).status().code(), "bad_flag");
  EXPECT_EQ(ParseFlags({"--commit-interval-us", "2000000"}).status().code(), "bad_flag");
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

// Serializes a generated message and parses it back, as a client would see it.
http::response<http::string_body> Parse(http::message_generator gen, bool head) {
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
  parser.skip(head);
  size_t offset = 0;
  while (!parser.is_done() && offset < wire.size()) {
    offset += parser.put(boost::asio::buffer(wire.data() + offset, wire.size() - offset), ec);
    if (ec) break;
  }
  EXPECT_TRUE(parser.is_done()) << ec.message() << "\n" << wire;
  return parser.release();
}

http::response<http::string_body> Serve(const NetLimits& limits,
                                        http::request<http::string_body> req) {
  const bool head = req.method() == http::verb::head;
  return Parse(HandleHttpRequest(limits, std::move(req)), head);
}

http::response<http::string_body> Serve(const NetLimits& limits, http::verb verb,
                                        const std::string& target) {
  http::request<http::string_body> req{verb, target, 11};
  req.set(http::field::host, "localhost:8080");
  return Serve(limits, std::move(req));
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


TEST_F(StaticFilesTest, SymlinksAreFollowedOnlyInsideTheRoot) {
  namespace fs = std::filesystem;
  const fs::path outside = dir_.path() / "outside";
  fs::create_directories(outside);
  std::ofstream(outside / "secret.txt") << "secret";
  std::ofstream(outside / "secret") << "secret";
  const fs::path r = root();
  fs::create_symlink(outside / "secret.txt", r / "leak.txt");
  fs::create_symlink("/etc/passwd", r / "passwd.txt");
  fs::create_symlink("../outside/secret.txt", r / "relative-leak.txt");
  fs::create_directory_symlink(outside, r / "outdir");
  fs::create_symlink("app.js", r / "assets" / "alias.js");
  fs::create_directory_symlink(r / "assets", r / "static");

  for (const char* escaping : {"/leak.txt", "/passwd.txt", "/relative-leak.txt",
                               "/outdir/secret.txt", "/static/../leak.txt"}) {
    const StaticTarget t = ResolveStatic(root(), escaping);
    EXPECT_NE(t.kind, StaticTarget::Kind::kFile) << escaping;
  }
  // An extension-less file reached through a link out of the root is treated as missing, so it
  // gets the SPA fallback like any unknown route, never its content.
  auto t = ResolveStatic(root(), "/outdir/secret");
  EXPECT_EQ(t.kind, StaticTarget::Kind::kFile);
  EXPECT_EQ(t.path, root() + "/index.html");

  t = ResolveStatic(root(), "/assets/alias.js");
  EXPECT_EQ(t.kind, StaticTarget::Kind::kFile);
  EXPECT_EQ(t.path, root() + "/assets/alias.js");
  t = ResolveStatic(root(), "/static/style.css");
  EXPECT_EQ(t.kind, StaticTarget::Kind::kFile);

  // The root may itself be a link (a deploy switching builds).
  fs::create_directory_symlink(r, dir_.path() / "current");
  t = ResolveStatic((dir_.path() / "current").string(), "/assets/app.js");
  EXPECT_EQ(t.kind, StaticTarget::Kind::kFile);
  EXPECT_EQ(ResolveStatic((dir_.path() / "current").string(), "/leak.txt").kind,
            StaticTarget::Kind::kNotFound);

  NetLimits limits;
  limits.static_dir = root();
  for (const char* escaping : {"/leak.txt", "/passwd.txt", "/outdir/secret.txt"}) {
    auto res = Serve(limits, http::verb::get, escaping);
    EXPECT_EQ(res.result(), http::status::not_found) << escaping;
    EXPECT_EQ(res.body().find("secret"), std::string::npos);
    EXPECT_EQ(res.body().find("root:"), std::string::npos);
  }
  auto res = Serve(limits, http::verb::get, "/assets/alias.js");
  EXPECT_EQ(res.result(), http::status::ok);
  EXPECT_EQ(res.body(), "console.log(1)");
}

TEST_F(StaticFilesTest, IndexLinkedOutsideTheRootIsNotServed) {
  namespace fs = std::filesystem;
  const fs::path other = dir_.path() / "other";
  fs::create_directories(other);
  fs::create_symlink(dir_.path() / "secret.txt", other / "index.html");
  EXPECT_EQ(ResolveStatic(other.string(), "/").kind, StaticTarget::Kind::kNotFound);
  EXPECT_EQ(ResolveStatic(other.string(), "/lobby").kind, StaticTarget::Kind::kNotFound);
}

TEST(HttpHandlerTest, Http11RequiresExactlyOneHost) {
  NetLimits limits;
  http::request<http::string_body> no_host{http::verb::get, "/healthz", 11};
  auto res = Serve(limits, no_host);
  EXPECT_EQ(res.result(), http::status::bad_request);
  EXPECT_FALSE(res.keep_alive());

  http::request<http::string_body> head_no_host{http::verb::head, "/healthz", 11};
  res = Serve(limits, head_no_host);
  EXPECT_EQ(res.result(), http::status::bad_request);
  EXPECT_TRUE(res.body().empty());

  http::request<http::string_body> two_hosts{http::verb::get, "/healthz", 11};
  two_hosts.insert(http::field::host, "a.example");
  two_hosts.insert(http::field::host, "b.example");
  EXPECT_EQ(Serve(limits, two_hosts).result(), http::status::bad_request);

  // HTTP/1.0 predates Host.
  http::request<http::string_body> old{http::verb::get, "/healthz", 10};
  EXPECT_EQ(Serve(limits, old).result(), http::status::ok);

  // Even a method that would be refused is first refused for its missing Host.
  http::request<http::string_body> post{http::verb::post, "/", 11};
  EXPECT_EQ(Serve(limits, post).result(), http::status::bad_request);
}

TEST(HttpHandlerTest, TheClientAddressIsForwardedOnlyByATrustedProxyOnLoopback) {
  http::request<http::string_body> req{http::verb::get, "/ws", 11};
  req.set("X-Forwarded-For", "192.0.2.1, 203.0.113.5 ");
  EXPECT_EQ(ClientAddress(req, "127.0.0.1", false), "127.0.0.1");
  EXPECT_EQ(ClientAddress(req, "127.0.0.1", true), "203.0.113.5");
  EXPECT_EQ(ClientAddress(req, "198.51.100.2", true), "198.51.100.2");  // not from the proxy
  req.set("X-Forwarded-For", "not an address");
  EXPECT_EQ(ClientAddress(req, "127.0.0.1", true), "127.0.0.1");
  req.erase("X-Forwarded-For");
  EXPECT_EQ(ClientAddress(req, "::1", true), "::1");
}

TEST(HttpHandlerTest, MetricsAreServedOnlyWhenASourceIsSet) {
  NetLimits limits;
  EXPECT_EQ(Serve(limits, http::verb::get, "/metrics").result(), http::status::not_found);

  const std::string text = "# TYPE plateau_up gauge\nplateau_up 1\n";
  int scrapes = 0;
  limits.metrics_text = [&] {
    ++scrapes;
    return text;
  };
  auto res = Serve(limits, http::verb::get, "/metrics?x=1");
  EXPECT_EQ(res.result(), http::status::ok);
  EXPECT_EQ(res.body(), text);
  EXPECT_EQ(res[http::field::content_type], "text/plain; version=0.0.4; charset=utf-8");
  EXPECT_EQ(scrapes, 1);

  res = Serve(limits, http::verb::head, "/metrics");
  EXPECT_EQ(res.result(), http::status::ok);
  EXPECT_TRUE(res.body().empty());
  EXPECT_EQ(res[http::field::content_length], std::to_string(text.size()));

  // From another address: only with public_metrics.
  http::request<http::string_body> req{http::verb::get, "/metrics", 11};
  req.set(http::field::host, "localhost");
  auto remote = Parse(HandleHttpRequest(limits, http::request<http::string_body>(req), false), false);
  EXPECT_EQ(remote.result(), http::status::not_found);
  limits.public_metrics = true;
  remote = Parse(HandleHttpRequest(limits, std::move(req), false), false);
  EXPECT_EQ(remote.result(), http::status::ok);
}

http::request<http::string_body> Upgrade(const std::string& key, const std::string& version) {
  http::request<http::string_body> req{http::verb::get, "/ws", 11};
  req.set(http::field::host, "localhost:8080");
  req.set(http::field::connection, "Upgrade");
  req.set(http::field::upgrade, "websocket");
  if (!key.empty()) req.set(http::field::sec_websocket_key, key);
  if (!version.empty()) req.set(http::field::sec_websocket_version, version);
  return req;
}

http::status RefusalOf(const http::request<http::string_body>& req) {
  auto refusal = RefuseUpgrade(req);
  if (!refusal) return http::status::unknown;
  auto res = Parse(std::move(*refusal), false);
  EXPECT_FALSE(res.keep_alive());
  return res.result();
}

TEST(HttpHandlerTest, UpgradesNeedAWellFormedKeyVersion13AndAHost) {
  // The sample key of RFC 6455.
  const std::string key = "dGhlIHNhbXBsZSBub25jZQ==";
  EXPECT_FALSE(RefuseUpgrade(Upgrade(key, "13")).has_value());
  EXPECT_FALSE(RefuseUpgrade(Upgrade("AAAAAAAAAAAAAAAAAAAAAA==", "13")).has_value());
  EXPECT_FALSE(RefuseUpgrade(Upgrade("+/+/+/+/+/+/+/+/+/+/+w==", "13")).has_value());

  const std::string bad_keys[] = {
      "",                                                  // missing
      "short==",                                           // too few bytes
      "dGhlIHNhbXBsZSBub25jZQ",                            // unpadded
      "dGhlIHNhbXBsZSBub25jZQAA",                          // 18 bytes, not 16
      "dGhlIHNhbXBsZSBub25j*Q==",                          // outside the alphabet
      "dGhlIHNhbXBsZSBub25jZ-==",                          // base64url is not base64
      "dGhlIHNhbXBsZSBub25jZQ==dGhlIHNhbXBsZSBub25jZQ==",  // two keys run together
  };
  for (const std::string& bad : bad_keys) {
    EXPECT_EQ(RefusalOf(Upgrade(bad, "13")), http::status::bad_request) << bad;
  }
  auto twice = Upgrade(key, "13");
  twice.insert(http::field::sec_websocket_key, key);
  EXPECT_EQ(RefusalOf(twice), http::status::bad_request);

  auto no_host = Upgrade(key, "13");
  no_host.erase(http::field::host);
  EXPECT_EQ(RefusalOf(no_host), http::status::bad_request);

  for (const std::string version : {"", "8", "12", "13, 8", "14"}) {  // "": missing
    auto refusal = RefuseUpgrade(Upgrade(key, version));
    ASSERT_TRUE(refusal.has_value()) << version;
    auto res = Parse(std::move(*refusal), false);
    EXPECT_EQ(res.result(), http::status::upgrade_required) << version;
    EXPECT_EQ(res[http::field::sec_websocket_version], "13");
  }
}

TEST(HttpHandlerTest, ReadsStoppedByALimitAreAnswered) {
  auto body = RefuseRead(http::error::body_limit, 11);
  ASSERT_TRUE(body.has_value());
  auto res = Parse(std::move(*body), false);
  EXPECT_EQ(res.result(), http::status::payload_too_large);
  EXPECT_FALSE(res.keep_alive());

  auto header = RefuseRead(http::error::header_limit, 11);
  ASSERT_TRUE(header.has_value());
  res = Parse(std::move(*header), false);
  EXPECT_EQ(res.result(), http::status::request_header_fields_too_large);
  EXPECT_FALSE(res.keep_alive());

  auto old = RefuseRead(http::error::body_limit, 10);
  ASSERT_TRUE(old.has_value());
  EXPECT_EQ(Parse(std::move(*old), false).version(), 10u);

  // Other failures leave nothing to answer: a broken or silent peer.
  EXPECT_FALSE(RefuseRead(http::error::bad_method, 11).has_value());
  EXPECT_FALSE(RefuseRead(boost::beast::error::timeout, 11).has_value());
  EXPECT_FALSE(RefuseRead(http::error::end_of_stream, 11).has_value());
}

}  // namespace
}  // namespace plateau::server
