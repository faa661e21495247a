// LIMIT: the optional Alliance step (proposals, votes, the fee, leaving, exclusion,
// demilitarisation) and help between allies (resistance, shortages, refused help).
// Rules and the decisions the book leaves open: RULES.md, "Alliances".
#include <algorithm>

#include "engine/games/limit/limit.h"
#include "engine/games/limit/limit_nation.h"

namespace plateau::games::limit {

namespace ec = engine::codes;
using engine::Seat;
using engine::Status;
using engine::T;

namespace {

const char* KindName(AllianceKind k) {
  return k == ALLIANCE_MILITARY ? "military" : "economic";
}

bool ValidKind(AllianceKind k) { return k == ALLIANCE_MILITARY || k == ALLIANCE_ECONOMIC; }

}  // namespace

engine::v1::Text KindText(AllianceKind k) {
  return T(k == ALLIANCE_MILITARY ? "limit.alliance.military" : "limit.alliance.economic");
}

engine::v1::Text ResourceText(Resource r) {
  switch (r) {
    case RESOURCE_RENEWABLE: return T("limit.res.renewable");
    case RESOURCE_INDUSTRIAL: return T("limit.res.industrial");
    case RESOURCE_MILITARY: return T("limit.res.military");
    default: return T("limit.res.fossil");
  }
}

engine::v1::Text ResourceCountText(Resource r, uint32_t count) {
  switch (r) {
    case RESOURCE_RENEWABLE: return T("limit.res.renewable_n", count);
    case RESOURCE_INDUSTRIAL: return T("limit.res.industrial_n", count);
    case RESOURCE_MILITARY: return T("limit.res.military_n", count);
    default: return T("limit.res.fossil_n", count);
  }
}

// ----- Groups -----

uint32_t LimitState::Group(int seat, AllianceKind k) const {
  return k == ALLIANCE_MILITARY ? N(seat).military_group() : N(seat).economic_group();
}

bool LimitState::Accord(int seat, AllianceKind k) const {
  return k == ALLIANCE_MILITARY ? N(seat).military_accord() : N(seat).economic_accord();
}

void LimitState::SetGroup(int seat, AllianceKind k, uint32_t group, bool accord) {
  if (k == ALLIANCE_MILITARY) {
    N(seat).set_military_group(group);
    N(seat).set_military_accord(accord);
  } else {
    N(seat).set_economic_group(group);
    N(seat).set_economic_accord(accord);
  }
}

std::vector<int> LimitState::Members(AllianceKind k, uint32_t group) const {
  std::vector<int> out;
  if (group == 0) return out;
  for (int i = 0; i < Seats(); ++i)
    if (Group(i, k) == group) out.push_back(i);
  return out;
}

std::vector<int> LimitState::Allies(int seat, AllianceKind k) const {
  std::vector<int> out = Members(k, Group(seat, k));
  out.erase(std::remove(out.begin(), out.end(), seat), out.end());
  return out;
}

uint32_t LimitState::AlliedStock(int seat, AllianceKind k, Resource r) const {
  uint32_t sum = 0;
  for (int i : Allies(seat, k)) sum += Stock(N(i), r);
  return sum;
}

// ----- The Alliance step -----

void LimitState::StartAllianceStep() {
  s_.set_phase(PHASE_ALLIANCE);
  s_.set_alliance_index(0);
  s_.mutable_alliance_pending()->Clear();
  s_.set_turn(static_cast<int>(s_.leader()));
  Log(T("limit.log.alliance_step"));
}

void LimitState::NextAllianceTurn() {
  s_.set_alliance_index(s_.alliance_index() + 1);
  if (s_.alliance_index() >= static_cast<uint32_t>(Seats())) {
    s_.set_turn(-1);
    return;
  }
  s_.set_turn(static_cast<int>((s_.leader() + s_.alliance_index()) % Seats()));
}

Status LimitState::CheckProposal(int seat, AllianceKind k, int to) const {
  if (!ValidKind(k)) return Status(codes::kBadAlliance, "Choose a military or economic alliance.");
  if (to < 0 || to >= Seats() || to == seat)
    return Status(codes::kBadTarget, "Propose the alliance to another nation.");
  if (Accord(seat, k))
    return Status(codes::kBadAlliance, std::string("Your ") + KindName(k) +
                                           " alliance changed this generation: no new proposal.");
  if (Accord(to, k))
    return Status(codes::kBadAlliance, std::string("That nation's ") + KindName(k) +
                                           " alliance changed this generation.");
  if (Group(seat, k) != 0 && Group(seat, k) == Group(to, k))
    return Status(codes::kBadAlliance, "You are already allied with that nation.");
  // The new alliance must be able to pay its fee; otherwise the proposal could only fail.
  uint32_t money = 0;
  std::vector<int> who = Members(k, Group(seat, k));
  for (int i : Members(k, Group(to, k))) who.push_back(i);
  if (Group(seat, k) == 0) who.push_back(seat);
  if (Group(to, k) == 0) who.push_back(to);
  for (int i : who) money += N(i).money();
  if (money < kAllianceFee)
    return Status(codes::kCannotPay, "The nations concerned cannot pay the 2 $ fee together.");
  return Status::Ok();
}

Status LimitState::CheckExclusion(int seat, AllianceKind k, int who) const {
  if (!ValidKind(k)) return Status(codes::kBadAlliance, "Choose a military or economic alliance.");
  const uint32_t g = Group(seat, k);
  if (g == 0) return Status(codes::kBadAlliance, "You are not in such an alliance.");
  if (who < 0 || who >= Seats() || who == seat || Group(who, k) != g)
    return Status(codes::kBadTarget, "Exclude another member of your alliance.");
  for (int i : Members(k, g))
    if (Accord(i, k))
      return Status(codes::kBadAlliance,
                    "Your alliance changed this generation: it cannot change again.");
  return Status::Ok();
}

Status LimitState::ActAllianceTurn(int seat, const Action& action, bool apply) {
  switch (action.kind_case()) {
    case Action::kPass:
      if (!apply) return Status::Ok();
      Log(T("limit.log.alliance_pass", Seat{seat}));
      NextAllianceTurn();
      return Status::Ok();
    case Action::kAllianceLeave: {
      const AllianceKind k = action.alliance_leave().kind();
      if (!ValidKind(k) || Group(seat, k) == 0)
        return Status(codes::kBadAlliance, "You are not in such an alliance.");
      if (!apply) return Status::Ok();
      Log(T("limit.log.alliance_leave", Seat{seat}, KindText(k)));
      LeaveAlliance(seat, k, true);
      NextAllianceTurn();
      return Status::Ok();
    }
    case Action::kAlliancePropose:
    case Action::kAllianceExclude: {
      const bool exclusion = action.has_alliance_exclude();
      const AllianceKind k =
          exclusion ? action.alliance_exclude().kind() : action.alliance_propose().kind();
      const int subject = static_cast<int>(exclusion ? action.alliance_exclude().seat()
                                                     : action.alliance_propose().to_seat());
      Status st = exclusion ? CheckExclusion(seat, k, subject) : CheckProposal(seat, k, subject);
      if (!st.ok() || !apply) return st;
      // Voters: a proposal needs the nation asked and every other member of the alliances
      // concerned; an exclusion needs every member but the excluded one.
      std::vector<int> voters;
      if (exclusion) {
        for (int i : Members(k, Group(seat, k)))
          if (i != seat && i != subject) voters.push_back(i);
      } else {
        voters.push_back(subject);
        for (int i : Allies(seat, k)) voters.push_back(i);
        for (int i : Allies(subject, k)) voters.push_back(i);
      }
      Log(T(exclusion ? "limit.log.exclusion_proposed" : "limit.log.alliance_proposed",
            Seat{seat}, Seat{subject}, KindText(k)));
      auto* p = s_.mutable_alliance_pending();
      p->Clear();
      p->set_active(true);
      p->set_kind(k);
      p->set_proposer(seat);
      p->set_subject(subject);
      p->set_exclusion(exclusion);
      for (int i = 0; i < Seats(); ++i) p->add_votes(2);
      internal::Choice shown;
      shown.set_kind(PROMPT_ALLIANCE_VOTE);
      shown.set_count(1);
      *shown.mutable_why() = T(exclusion ? "limit.why.vote_exclude" : "limit.why.vote_propose",
                               Seat{seat}, Seat{subject}, KindText(k));
      shown.set_from_seat(seat);
      shown.set_alliance(k);
      shown.set_subject(subject);
      shown.set_exclusion(exclusion);
      std::vector<v1::Prompt> prompts;
      for (int i : voters) {
        p->set_votes(i, -1);
        prompts.push_back(engine::MakePrompt(i, v1::PROMPT_YES_NO, T("limit.q.vote")));
        *prompts.back().mutable_detail() = shown.why();
      }
      // Each vote is logged as it is cast (GameAnswered); the step goes on once all are in.
      if (!prompts.empty())
        Ask(std::move(prompts), PROMPT_ALLIANCE_VOTE, shown, v1::DEFAULT_FIRST_OPTION);
      return Status::Ok();
    }
    default:
      return Status(codes::kWrongPrompt,
                    "It is your Alliance step turn: propose, leave, exclude, or pass.");
  }
}

void LimitState::ResolveAlliancePending() {
  auto* p = s_.mutable_alliance_pending();
  const AllianceKind k = p->kind();
  const int proposer = static_cast<int>(p->proposer());
  const int subject = static_cast<int>(p->subject());
  if (p->stage() == 0) {
    for (int v : p->votes())
      if (v == 0) {
        Log(T(p->exclusion() ? "limit.log.exclusion_refused" : "limit.log.alliance_refused"));
        p->Clear();
        NextAllianceTurn();
        return;
      }
    if (p->exclusion()) {
      Log(T("limit.log.excluded", Seat{subject}, KindText(k)));
      LeaveAlliance(subject, k, true);
      p->Clear();
      NextAllianceTurn();
      return;
    }
    // Accepted: the members of the new alliance pay the fee, alone or shared.
    p->set_stage(1);
    std::vector<int> members = Members(k, Group(proposer, k));
    for (int i : Members(k, Group(subject, k))) members.push_back(i);
    if (Group(proposer, k) == 0) members.push_back(proposer);
    if (Group(subject, k) == 0) members.push_back(subject);
    for (int i = 0; i < Seats(); ++i) {
      p->add_fee(0);
      p->add_fee_asked(false);
    }
    internal::Choice shown;
    shown.set_kind(PROMPT_ALLIANCE_FEE);
    shown.set_count(kAllianceFee);
    *shown.mutable_why() =
        T("limit.why.fee", KindText(k), Seat{proposer}, Seat{subject}, kAllianceFee);
    shown.set_from_seat(proposer);
    shown.set_alliance(k);
    shown.set_subject(subject);
    shown.set_amount(kAllianceFee);
    std::vector<v1::Prompt> prompts;
    for (int i : members) {
      if (N(i).money() == 0) continue;
      p->set_fee(i, -1);
      p->set_fee_asked(i, true);
      prompts.push_back(engine::MakePrompt(i, v1::PROMPT_NUMBER, T("limit.q.fee", kAllianceFee), 0,
                                           std::min(N(i).money(), kAllianceFee)));
      *prompts.back().mutable_detail() = shown.why();
    }
    // Offers stay secret until all are made (GameAnswered counts each, RedrawAllianceAnswers
    // keeps them from other nations' samples).
    if (!prompts.empty()) Ask(std::move(prompts), PROMPT_ALLIANCE_FEE, shown, v1::DEFAULT_FIRST_OPTION);
    return;
  }
  uint32_t offered = 0;
  for (int i = 0; i < Seats(); ++i) offered += std::min<uint32_t>(std::max(0, p->fee(i)), N(i).money());
  if (offered < kAllianceFee) {
    Log(T("limit.log.fee_unpaid"));
  } else {
    // Offers are taken in turn order from the proposer, never more than the fee.
    uint32_t left = kAllianceFee;
    for (int d = 0; d < Seats() && left > 0; ++d) {
      const int i = (proposer + d) % Seats();
      const uint32_t give = std::min({left, static_cast<uint32_t>(std::max(0, p->fee(i))),
                                      N(i).money()});
      N(i).set_money(N(i).money() - give);
      s_.set_bank(s_.bank() + give);
      left -= give;
    }
    FormAlliance(k, proposer, subject);
    Log(T("limit.log.alliance_formed", Seat{proposer}, Seat{subject}, KindText(k)));
    if (k == ALLIANCE_MILITARY && !s_.demilitarised() &&
        static_cast<int>(Members(k, Group(proposer, k)).size()) == Seats())
      Demilitarise();
  }
  p->Clear();
  NextAllianceTurn();
}

void LimitState::FormAlliance(AllianceKind k, int a, int b) {
  const uint32_t ga = Group(a, k), gb = Group(b, k);
  uint32_t id = ga != 0 ? ga : gb;
  if (id == 0) {
    s_.set_next_group(std::max<uint32_t>(1, s_.next_group()));
    id = s_.next_group();
    s_.set_next_group(id + 1);
  }
  std::vector<int> all = Members(k, ga);
  for (int i : Members(k, gb)) all.push_back(i);
  all.push_back(a);
  all.push_back(b);
  // Every token of the merged alliance turns to its Accord side.
  for (int i : all) SetGroup(i, k, id, true);
}

void LimitState::LeaveAlliance(int seat, AllianceKind k, bool lock_rest) {
  const uint32_t g = Group(seat, k);
  SetGroup(seat, k, 0, false);
  const std::vector<int> rest = Members(k, g);
  if (rest.size() == 1) {
    // A token alone in the centre goes back to its nation.
    SetGroup(rest[0], k, 0, false);
  } else if (lock_rest) {
    for (int i : rest) SetGroup(i, k, g, true);  // a changed alliance cannot change again
  }
}

void LimitState::BreakAlliance(int seat, AllianceKind k) {
  const std::vector<int> members = Members(k, Group(seat, k));
  for (int i : members) {
    GainDestab(i, 1);
    SetGroup(i, k, 0, false);
  }
  Log(T("limit.log.alliance_broken", Seat{seat}, KindText(k)));
}

void LimitState::Demilitarise() {
  s_.set_demilitarised(true);
  Log(T("limit.log.demilitarisation"));
  for (int i = 0; i < Seats(); ++i) {
    if (TrackValue(FACTORY_MILITARY, static_cast<int>(N(i).military_rank())) >= 5) {
      FactoryUp(i, FACTORY_INDUSTRIAL, 1);
      N(i).set_military_rank(1);
    }
  }
  for (int i = 0; i < Seats(); ++i) {
    auto& n = N(i);
    n.set_military(0);
    LowerDisorder(i, 1, T("limit.cause.demilitarisation"));
    const uint32_t back = std::min<uint32_t>(2, n.destabilisation());
    n.set_destabilisation(n.destabilisation() - back);
    s_.set_destabilisation_reserve(s_.destabilisation_reserve() + back);
    AskOwed(i, PROMPT_RAISE_CLASS, 1, T("limit.why.demilitarisation"));
  }
}

// ----- Help between allies -----

bool LimitState::HelpWaiting(int seat) const {
  return N(seat).help().active() && N(seat).help().waiting();
}

bool LimitState::AskHelp(int seat, uint32_t purpose, AllianceKind k, Resource r,
                         uint32_t missing) {
  auto* h = N(seat).mutable_help();
  if (h->active() && h->purpose() == purpose) return !h->decided();
  // Asking makes sense only when the allies together hold what is missing (help counts only
  // when it covers the whole shortfall).
  if (missing == 0 || !s_.alliances() || AlliedStock(seat, k, r) < missing) return false;
  h->Clear();
  h->set_active(true);
  h->set_purpose(purpose);
  h->set_kind(k);
  h->set_resource(r);
  h->set_amount(missing);
  internal::Choice c = MakeChoice(PROMPT_HELP_REQUEST, 1,
                                  T("limit.why.help_request", missing, ResourceText(r), KindText(k)));
  c.set_alliance(k);
  c.set_amount(missing);
  c.set_resource(r);
  AskChoice(seat, c);
  return true;
}

void LimitState::ResolveHelp(int seat) {
  auto* h = N(seat).mutable_help();
  const Resource r = h->resource();
  uint32_t offered = 0;
  for (int i = 0; i < h->given_size(); ++i)
    offered += std::min<uint32_t>(std::max(0, h->given(i)), Stock(N(i), r));
  h->set_waiting(false);
  h->set_decided(true);
  if (offered >= h->amount()) {
    uint32_t left = h->amount();
    for (int d = 1; d < Seats() && left > 0; ++d) {
      const int i = (seat + d) % Seats();
      const uint32_t give = std::min({left, static_cast<uint32_t>(std::max(0, h->given(i))),
                                      Stock(N(i), r)});
      if (give == 0) continue;
      SetStock(N(i), r, Stock(N(i), r) - give);
      SetStock(N(seat), r, Stock(N(seat), r) + give);
      left -= give;
      Log(T("limit.log.help_given", Seat{i}, give, ResourceCountText(r, give), Seat{seat}));
    }
    if (h->purpose() == kPurposeResist) s_.mutable_pending()->set_resisted(true);
    return;
  }
  Log(T("limit.log.help_refused", Seat{seat}));
  if (Group(seat, h->kind()) != 0) {
    internal::Choice c =
        MakeChoice(PROMPT_BREAK_ALLIANCE, 1, T("limit.why.break", KindText(h->kind())));
    c.set_alliance(h->kind());
    AskChoice(seat, c);
  }
}

void LimitState::MilitaryCrisisSpending() {
  // Each nation spends 1 military per population one rank lower; its military allies may help.
  bool waiting = false;
  for (int i = 0; i < Seats(); ++i) {
    if (s_.crisis_spent() & (1u << i)) continue;
    auto& n = N(i);
    const uint32_t need = PopValue(static_cast<int>(n.pop_rank()) - 1);
    if (AskHelp(i, kPurposeMilitaryCrisis, ALLIANCE_MILITARY, RESOURCE_MILITARY,
                need > n.military() ? need - n.military() : 0)) {
      waiting = true;
      continue;
    }
    uint32_t stock = n.military(), spent = 0;
    const uint32_t missing = SpendByRank(&stock, static_cast<int>(n.pop_rank()) - 1, &spent);
    n.set_military(stock);
    s_.set_crisis_spent(s_.crisis_spent() | (1u << i));
    AskOwed(i, PROMPT_LOWER_CLASS, missing, T("limit.why.military_crisis"));
  }
  if (waiting) return;
  s_.set_crisis_spent(0);
  for (int i = 0; i < Seats(); ++i) N(i).clear_help();
  s_.set_international_step(5);
}

}  // namespace plateau::games::limit
