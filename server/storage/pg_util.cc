#include "server/storage/pg_util.h"

namespace plateau::server::pg {
Status Failure(PGconn* c, const PGresult* r, std::string_view what) {
  std::string message = r != nullptr ? PQresultErrorMessage(r) : PQerrorMessage(c);
  while (!message.empty() && (message.back() == '\n' || message.back() == ' ')) message.pop_back();
  return Status(codes::kStorageError,
                "PostgreSQL failed " + std::string(what) + ": " + message);
}

namespace {

bool Succeeded(const PGresult* r) {
  const ExecStatusType s = PQresultStatus(r);
  return s == PGRES_COMMAND_OK || s == PGRES_TUPLES_OK;
}

}  // namespace

StatusOr<Connection> Connect(const std::string& conninfo) {
  if (std::string why; !LoadLibpq(&why)) {
    return Status(codes::kStorageError,
                  "PostgreSQL: cannot load libpq (" + why + "); install libpq5.");
  }
  Connection c(PQconnectdb(conninfo.c_str()));
  if (!c) return Status(codes::kStorageError, "PostgreSQL: out of memory connecting.");
  if (PQstatus(c.get()) != CONNECTION_OK) return Failure(c.get(), nullptr, "to connect");
  return c;
}

StatusOr<Result> Query(PGconn* c, std::string_view sql, const std::vector<Param>& params,
                       std::string_view what) {
  std::vector<const char*> values;
  values.reserve(params.size());
  for (const Param& p : params) values.push_back(p ? p->c_str() : nullptr);
  Result r(PQexecParams(c, std::string(sql).c_str(), static_cast<int>(params.size()), nullptr,
                        values.data(), nullptr, nullptr, 0));
  if (!r || !Succeeded(r.get())) return Failure(c, r.get(), what);
  return r;
}

Status Exec(PGconn* c, std::string_view sql, std::string_view what) {
  // PQexec runs every statement of a string without parameters, stopping at the first error.
  Result r(PQexec(c, std::string(sql).c_str()));
  if (!r || !Succeeded(r.get())) return Failure(c, r.get(), what);
  return Status::Ok();
}

std::string TextArray(const std::vector<std::string>& items) {
  std::string out = "{";
  for (const std::string& item : items) {
    if (out.size() > 1) out += ',';
    out += '"';
    for (char c : item) {
      if (c == '"' || c == '\\') out += '\\';
      out += c;
    }
    out += '"';
  }
  return out + "}";
}

}  // namespace plateau::server::pg
