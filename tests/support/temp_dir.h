#pragma once
// A fresh directory per test, removed with everything in it when the test ends, so tests that
// write SQLite files never see each other's data.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

namespace plateau::testing {

class TempDir {
 public:
  TempDir() {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "plateau_test_XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) std::abort();  // no temp dir: nothing can be tested
    path_ = std::filesystem::path(pattern);
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  std::string File(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

}  // namespace plateau::testing
