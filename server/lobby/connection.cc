// Frames for a connection: a server message, an error or an Ok encoded once, to be shared by every
// recipient.
#include "server/lobby/connection.h"

namespace plateau::server {

SharedBuffer Encode(const plateau::v1::ServerMessage& message) {
  auto out = std::make_shared<std::string>();
  message.SerializeToString(out.get());
  return out;
}

SharedBuffer EncodeError(uint64_t request_id, std::string_view code, std::string_view reason) {
  plateau::v1::ServerMessage m;
  m.set_request_id(request_id);
  m.mutable_error()->set_code(std::string(code));
  m.mutable_error()->set_reason(std::string(reason));
  return Encode(m);
}

SharedBuffer EncodeOk(uint64_t request_id) {
  plateau::v1::ServerMessage m;
  m.set_request_id(request_id);
  m.mutable_ok();
  return Encode(m);
}

}  // namespace plateau::server
