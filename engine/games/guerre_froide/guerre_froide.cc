// Guerre Froide: the game, its positions, and the turn phase by phase (RULES.md, "The turn").
#include "engine/games/guerre_froide/guerre_froide.h"

#include <algorithm>
#include <set>

#include "engine/core/data.h"
#include "engine/core/registry.h"
#include "engine/core/rng.h"

namespace plateau::games::guerre_froide {

namespace ec = engine::codes;
using engine::Seat;
using engine::Status;
using engine::StatusOr;
using engine::T;

namespace {

// The agents each service plays with: the six base agents, the Ambassador with three players,
// and the optional Cryptographer.
std::vector<AgentKind> AgentsFor(uint32_t num_seats, CryptographerOption cryptographer) {
  std::vector<AgentKind> agents = {AGENT_MASTER_SPY, AGENT_DEPUTY_DIRECTOR, AGENT_DOUBLE_AGENT,
                                   AGENT_ANALYST,    AGENT_ASSASSIN,        AGENT_DIRECTOR};
  if (num_seats == 3) agents.push_back(AGENT_AMBASSADOR);
  if (cryptographer == CRYPTOGRAPHER_DRAW) agents.push_back(AGENT_CRYPTOGRAPHER_DRAW);
  if (cryptographer == CRYPTOGRAPHER_BIAS) agents.push_back(AGENT_CRYPTOGRAPHER_BIAS);
  std::sort(agents.begin(), agents.end());
  return agents;
}

template <class R>
bool Contains(const R& list, uint32_t x) {
  return std::find(list.begin(), list.end(), x) != list.end();
}

template <class R>
void Erase(R* list, uint32_t x) {
  for (int i = 0; i < list->size(); ++i) {
    if (list->Get(i) == x) {
      list->erase(list->begin() + i);
      return;
    }
  }
}

// The base line-up, then each Cryptographer: the option changes the agents and the Debriefing.
std::vector<std::string> OptionVariants() {
  std::vector<std::string> out = {""};
  for (CryptographerOption c : {CRYPTOGRAPHER_DRAW, CRYPTOGRAPHER_BIAS}) {
    Options o;
    o.set_cryptographer(c);
    out.push_back(o.SerializeAsString());
  }
  return out;
}

}  // namespace

// ----- The game -----

GuerreFroideGame::GuerreFroideGame(guerre_froide::StaticData cards)
    : TypedGame(engine::GameInfo{"guerre_froide", "Guerre Froide", 2, 3, OptionVariants(),
      // Timers: a fast game of many small choices (recruit, activate, pass).
                                {{"Casual", 45, 0, 0}, {"Clocked", 0, 300, 5}},
      // The normal bot looks about one objective ahead: the recruiting and the agents.
                                10,
      // Its moves are published in the acting seat's view (TypedDescribeMove).
                                true}),
      cards_(std::move(cards)) {
  for (int i = 0; i < cards_.objectives_size(); ++i) objective_index_[cards_.objectives(i).id()] = i;
  for (int i = 0; i < cards_.groups_size(); ++i) group_index_[cards_.groups(i).id()] = i;
  SetStaticData(std::make_unique<guerre_froide::StaticData>(cards_));
}

StatusOr<std::unique_ptr<GuerreFroideGame>> GuerreFroideGame::FromData(
    std::string_view cards_text, std::string_view texts_text) {
  auto cards = ParseCards("cards.textproto", cards_text);
  if (!cards.ok()) return cards.status();
  auto texts = engine::Catalogue::Parse("texts.textproto", texts_text);
  if (!texts.ok()) return texts.status();
  auto game = std::unique_ptr<GuerreFroideGame>(new GuerreFroideGame(std::move(cards).value()));
  game->SetTexts(texts.value());
  return game;
}

int GuerreFroideGame::ObjectiveIndex(const std::string& id) const {
  auto it = objective_index_.find(id);
  return it == objective_index_.end() ? -1 : it->second;
}

int GuerreFroideGame::GroupIndex(const std::string& id) const {
  auto it = group_index_.find(id);
  return it == group_index_.end() ? -1 : it->second;
}

int GuerreFroideGame::EventIndex(EventAbility event) const {
  for (int i = 0; i < cards_.objectives_size(); ++i) {
    if (cards_.objectives(i).event() == event) return i;
  }
  return -1;
}

const AgentCard& GuerreFroideGame::agent(AgentKind kind) const {
  for (const auto& a : cards_.agents()) {
    if (a.kind() == kind) return a;
  }
  return AgentCard::default_instance();  // CheckCards guarantees every kind
}

std::unique_ptr<engine::State> GuerreFroideGame::NewTypedState(int num_seats, const Options& o,
                                                               uint64_t seed) const {
  internal::StateProto position;
  position.set_num_seats(static_cast<uint32_t>(num_seats));  // the core's seat count comes from it
  auto state = std::make_unique<GuerreFroideState>(this, std::move(position));
  state->Setup(static_cast<uint32_t>(num_seats), o.cryptographer(), seed);
  return state;
}

StatusOr<std::unique_ptr<engine::State>> GuerreFroideGame::Deserialize(
    std::string_view bytes) const {
  internal::StateProto s;
  if (!s.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    return Status(ec::kMalformed, "The bytes are not a Guerre Froide position.");
  }
  return FromProto(s);
}

StatusOr<std::unique_ptr<engine::State>> GuerreFroideGame::FromProto(
    const internal::StateProto& position) const {
  std::string problem = CheckPosition(position);
  if (!problem.empty()) {
    return Status(ec::kMalformed, "Not a consistent Guerre Froide position: " + problem);
  }
  return std::unique_ptr<engine::State>(std::make_unique<GuerreFroideState>(this, position));
}

std::string GuerreFroideGame::CheckPosition(const internal::StateProto& s) const {
  const uint32_t n = s.num_seats();
  if (n < 2 || n > 3) return "the number of seats must be 2 or 3.";
  if (s.seats_size() != static_cast<int>(n)) return "one seat state per seat is needed.";
  // Every card exactly once, wherever it is.
  std::vector<int> objectives(cards_.objectives_size()), groups(cards_.groups_size());
  auto count = [](std::vector<int>& seen, uint32_t card) {
    if (card >= seen.size()) return false;
    ++seen[card];
    return true;
  };
  bool in_range = true;
  for (uint32_t c : s.objective_deck()) in_range &= count(objectives, c);
  for (uint32_t c : s.objective_discard()) in_range &= count(objectives, c);
  // Once claimed or sent to the bottom, this turn's objective is counted where it went.
  if (s.objective() >= 0 && !s.objective_settled()) {
    in_range &= count(objectives, static_cast<uint32_t>(s.objective()));
  }
  for (uint32_t c : s.group_deck()) in_range &= count(groups, c);
  for (uint32_t c : s.group_discard()) in_range &= count(groups, c);
  for (uint32_t c : s.looking().cards()) {
    in_range &= count(s.looking().objectives() ? objectives : groups, c);
  }
  const auto agents = AgentsFor(n, s.cryptographer());
  for (const auto& seat : s.seats()) {
    for (uint32_t c : seat.won()) in_range &= count(objectives, c);
    for (const auto& gs : seat.groups()) in_range &= count(groups, gs.card());
    std::multiset<uint32_t> held;
    for (const auto* list : {&seat.hq(), &seat.agent_x(), &seat.leave(), &seat.terminated(),
                             &seat.detained()}) {
      held.insert(list->begin(), list->end());
    }
    if (held != std::multiset<uint32_t>(agents.begin(), agents.end())) {
      return "each service must hold each of its agents exactly once.";
    }
    if (seat.agent_x_size() > 1) return "a service has one Agent X at most.";
  }
  if (!in_range) return "a card number is out of range.";
  for (size_t i = 0; i < objectives.size(); ++i) {
    if (objectives[i] != 1) return "objective '" + cards_.objectives(i).id() + "' is not in one place.";
  }
  for (size_t i = 0; i < groups.size(); ++i) {
    if (groups[i] != 1) return "group '" + cards_.groups(i).id() + "' is not in one place.";
  }
  const int seats = static_cast<int>(n);
  auto seat_or_none = [&](int32_t v) { return v >= -1 && v < seats; };
  if (s.balance() < 0 || s.balance() >= seats) return "no balance token holder.";
  if (!seat_or_none(s.to_act()) || !seat_or_none(s.dominating()) || !seat_or_none(s.claimed_by()) ||
      !seat_or_none(s.loser()) || !seat_or_none(s.runner_up())) {
    return "a seat number is out of range.";
  }
  for (const auto& effect : s.table().deferred()) {
    internal::Strike strike;
    if (effect.kind() != internal::EFFECT_STRIKE || !strike.ParseFromString(effect.data()) ||
        strike.seat() >= n || !seat_or_none(strike.target())) {
      return "a deferred strike is unreadable or names no seat.";
    }
  }
  // The game asks one seat at a time: the queue holds its one open question or nothing.
  const auto& asked = s.table().decisions();
  if (asked.size() > 1 || (asked.size() == 1 && asked[0].prompts_size() != 1)) {
    return "more than one question is open.";
  }
  const internal::Ask open =
      asked.empty() ? internal::ASK_NONE : static_cast<internal::Ask>(asked[0].kind());
  if (!asked.empty() && (!internal::Ask_IsValid(open) || open == internal::ASK_NONE ||
                         asked[0].prompts(0).seat() >= seats)) {
    return "a question is of no kind or asked of no seat.";
  }
  internal::AskResume resume;
  if (!asked.empty() && !resume.ParseFromString(asked[0].resume())) return "a question is unreadable.";
  for (uint32_t seat : resume.seats()) {
    if (seat >= n) return "a question offers no seat.";
  }
  const bool about_cards = open == internal::ASK_MEDIA || open == internal::ASK_ANALYST_ORDER ||
                           open == internal::ASK_SPACE_RACE_ORDER;
  if (about_cards != (s.looking().cards_size() > 0) ||
      (about_cards && (static_cast<int>(s.looking().seat()) != asked[0].prompts(0).seat() ||
                       s.looking().objectives() != (open == internal::ASK_SPACE_RACE_ORDER)))) {
    return "the cards looked at do not match the question.";
  }
  if (s.phase() == PHASE_STRUGGLE && s.group_deck_size() == 0 && asked.empty()) {
    return "the struggle goes on with an empty group deck.";
  }
  if (s.phase() == PHASE_UNSPECIFIED) return "no phase.";
  const bool fought = s.phase() != PHASE_DETENTE && s.phase() != PHASE_GAME_OVER;
  if (fought && s.objective() < 0) return "no objective this turn.";
  return "";
}

// ----- The position -----

GuerreFroideState::GuerreFroideState(const GuerreFroideGame* game, internal::StateProto position)
    : TypedState(game, static_cast<int>(position.num_seats())), game_(game) {
  s_ = std::move(position);
}

uint32_t GuerreFroideState::Goal() const {
  return s_.num_seats() == 2 ? kGoalTwoPlayers : kGoalThreePlayers;
}

std::vector<int64_t> GuerreFroideState::Scores() const {
  std::vector<int64_t> out;
  for (const auto& seat : s_.seats()) out.push_back(seat.score());
  return out;
}

std::vector<int> GuerreFroideState::GameRanks() const {
  // The winners first; the others by score.
  std::vector<int64_t> scores = Scores();
  for (uint32_t w : s_.winners()) scores[w] += 1'000'000;
  return engine::RanksFromScores(scores);
}

uint32_t GuerreFroideState::Influence(int seat) const {
  uint32_t total = 0;
  for (const auto& gs : S(seat).groups()) total += g().group(gs.card()).influence();
  return total;
}

bool GuerreFroideState::WithinStability(int seat, int extra) const {
  return static_cast<int>(Influence(seat)) + extra <= static_cast<int>(Objective().stability());
}

bool GuerreFroideState::Holds(int seat, EventAbility event) const {
  const int card = g().EventIndex(event);
  return card >= 0 && Contains(S(seat).won(), static_cast<uint32_t>(card));
}

int GuerreFroideState::HolderOfGroup(uint32_t card) const {
  for (int seat = 0; seat < Seats(); ++seat) {
    for (const auto& gs : S(seat).groups()) {
      if (gs.card() == card) return seat;
    }
  }
  return -1;
}

AgentKind GuerreFroideState::AgentX(int seat) const {
  return S(seat).agent_x_size() == 0 ? AGENT_UNSPECIFIED
                                     : static_cast<AgentKind>(S(seat).agent_x(0));
}

std::vector<int> GuerreFroideState::AgentsOfKind(AgentKind kind) const {
  std::vector<int> out;
  for (int seat = 0; seat < Seats(); ++seat) {
    if (AgentX(seat) == kind) out.push_back(seat);
  }
  return out;
}

void GuerreFroideState::RemoveAgentX(int seat, bool detained) {
  const uint32_t kind = S(seat).agent_x(0);
  M(seat).clear_agent_x();
  (detained ? M(seat).mutable_detained() : M(seat).mutable_terminated())->Add(kind);
  StepOf(seat, static_cast<AgentKind>(kind))->set_removed(true);
}

DebriefStep* GuerreFroideState::StepOf(int seat, AgentKind agent) {
  for (auto& step : *s_.mutable_debriefing()) {
    if (static_cast<int>(step.seat()) == seat && step.agent() == agent) return &step;
  }
  auto* step = s_.add_debriefing();
  step->set_seat(static_cast<uint32_t>(seat));
  step->set_agent(agent);
  step->set_initiative(Initiative(agent));
  // In initiative order, then seat order, as the Debriefing resolves them.
  auto* steps = s_.mutable_debriefing();
  for (int i = steps->size() - 1; i > 0; --i) {
    const auto& a = steps->Get(i - 1);
    const auto& b = steps->Get(i);
    if (std::make_pair(a.initiative(), a.seat()) <= std::make_pair(b.initiative(), b.seat())) {
      return steps->Mutable(i);
    }
    steps->SwapElements(i - 1, i);
  }
  return steps->Mutable(0);
}

void GuerreFroideState::Outcome(int seat, AgentKind agent, bool acted, engine::v1::Text text) {
  DebriefStep* step = StepOf(seat, agent);
  step->set_acted(step->acted() || acted);
  *step->mutable_outcome() = text;
  Log(std::move(text));
}

void GuerreFroideState::Setup(uint32_t num_seats, CryptographerOption cryptographer,
                              uint64_t seed) {
  engine::Rng rng(seed);
  s_.set_num_seats(num_seats);
  s_.set_cryptographer(cryptographer);
  for (int i = 0; i < g().cards().objectives_size(); ++i) s_.add_objective_deck(i);
  for (int i = 0; i < g().cards().groups_size(); ++i) s_.add_group_deck(i);
  rng.ShuffleRepeated(s_.mutable_objective_deck());
  rng.ShuffleRepeated(s_.mutable_group_deck());
  for (uint32_t i = 0; i < num_seats; ++i) {
    auto* seat = s_.add_seats();
    for (AgentKind a : AgentsFor(num_seats, cryptographer)) seat->add_hq(a);
  }
  // The first turn's balance token is drawn at random (the book has one player guess a fist).
  s_.set_balance(static_cast<int32_t>(rng.Below(num_seats)));
  s_.set_rng(rng.state());
  s_.set_objective(-1);
  s_.set_loser(-1);
  s_.set_to_act(-1);
  s_.set_dominating(-1);
  s_.set_debriefing_dominating(-1);
  s_.set_claimed_by(-1);
  s_.set_runner_up(-1);
  StartTurn();
}

uint32_t GuerreFroideState::DrawGroup() {
  const uint32_t card = s_.group_deck(0);
  s_.mutable_group_deck()->erase(s_.mutable_group_deck()->begin());
  return card;
}

void GuerreFroideState::DiscardGroup(int holder, int index) {
  auto* groups = M(holder).mutable_groups();
  s_.add_group_discard(groups->Get(index).card());
  groups->erase(groups->begin() + index);
}

// ----- Briefing -----

void GuerreFroideState::StartTurn() {
  s_.set_turn(s_.turn() + 1);
  s_.set_phase(PHASE_BRIEFING);
  for (auto& seat : *s_.mutable_seats()) {
    seat.set_passed(false);
    seat.set_civil_disorder(false);
    seat.set_agent_revealed(false);
    seat.set_agent_acted(false);
  }
  s_.set_dominating(-1);
  s_.set_claimed_by(-1);
  s_.set_runner_up(-1);
  s_.set_objective_settled(false);
  // An empty objective deck takes back the used events; with none, nothing is left to fight for.
  if (s_.objective_deck_size() == 0 && s_.objective_discard_size() > 0) {
    s_.mutable_objective_deck()->Swap(s_.mutable_objective_discard());
    engine::Rng rng(s_.rng());
    rng.ShuffleRepeated(s_.mutable_objective_deck());
    s_.set_rng(rng.state());
    Log(T("guerre_froide.objectives_reshuffled"));
  }
  if (s_.objective_deck_size() == 0) {
    Log(T("guerre_froide.no_objective_left"));
    EndGame();
    return;
  }
  s_.set_objective(static_cast<int32_t>(s_.objective_deck(0)));
  s_.mutable_objective_deck()->erase(s_.mutable_objective_deck()->begin());
  Log(T("guerre_froide.turn_start", s_.turn(), Objective().name(), Objective().stability(),
        Objective().population(), Objective().vp()));
  if (s_.turn() > 1) {
    GiveBalance();
    if (OpenDecision() != nullptr) return;
  }
  FinishBriefing();
}

void GuerreFroideState::GiveBalance() {
  uint32_t lowest = UINT32_MAX;
  for (const auto& seat : s_.seats()) lowest = std::min(lowest, seat.score());
  std::vector<uint32_t> tied;
  // From the holder's left, so "the first tied player" is well defined.
  for (int k = 1; k <= Seats(); ++k) {
    const int seat = (s_.balance() + k) % Seats();
    if (S(seat).score() == lowest) tied.push_back(static_cast<uint32_t>(seat));
  }
  int to = -1;
  if (tied.size() == 1) {
    to = static_cast<int>(tied[0]);
  } else if (s_.loser() >= 0 && Contains(tied, static_cast<uint32_t>(s_.loser()))) {
    to = s_.loser();
  } else if (s_.loser() >= 0) {
    // Three players: the loser, not among the lowest, gives it to one of them.
    AskSeat(internal::ASK_BALANCE, s_.loser(), {}, tied);
    return;
  } else if (Contains(tied, static_cast<uint32_t>(s_.balance()))) {
    to = s_.balance();
  } else {
    to = static_cast<int>(tied[0]);
  }
  s_.set_balance(to);
  Log(T("guerre_froide.balance", Seat{to}));
}

void GuerreFroideState::FinishBriefing() {
  if (s_.turn() > 1 && s_.group_discard_size() > 0) {
    for (uint32_t c : s_.group_discard()) s_.add_group_deck(c);
    s_.clear_group_discard();
    engine::Rng rng(s_.rng());
    rng.ShuffleRepeated(s_.mutable_group_deck());
    s_.set_rng(rng.state());
  }
  for (int seat = 0; seat < Seats(); ++seat) {
    if (!S(seat).analyst_next()) continue;
    M(seat).set_analyst_next(false);
    std::vector<uint32_t> top;
    while (static_cast<int>(top.size()) < kAnalystCards && s_.group_deck_size() > 0) {
      top.push_back(DrawGroup());
    }
    if (top.empty()) continue;
    Log(T("guerre_froide.analyst_looks", Seat{seat}, static_cast<int>(top.size())));
    AskSeat(internal::ASK_ANALYST_ORDER, seat, top);
    return;
  }
  StartPlanning();
}

// ----- Planning -----

void GuerreFroideState::StartPlanning() {
  s_.set_phase(PHASE_PLANNING);
  MaybeEndPlanning();
}

void GuerreFroideState::MaybeEndPlanning() {
  for (const auto& seat : s_.seats()) {
    if (seat.agent_x_size() == 0) return;
  }
  // Every Agent X chosen: last turn's agents come back from leave.
  for (auto& seat : *s_.mutable_seats()) {
    for (uint32_t a : seat.leave()) seat.add_hq(a);
    seat.clear_leave();
    std::sort(seat.mutable_hq()->begin(), seat.mutable_hq()->end());
    seat.set_sees_next(false);
  }
  Log(T("guerre_froide.agents_chosen"));
  StartStruggle();
}

// ----- Influence struggle -----

void GuerreFroideState::StartStruggle() {
  s_.set_phase(PHASE_STRUGGLE);
  s_.set_to_act(-1);  // the balance token's holder picks who starts
  s_.set_passes(0);
  if (s_.group_deck_size() == 0) CeaseFire();
}

void GuerreFroideState::AfterStruggleAction(int seat, bool passed) {
  if (passed) {
    M(seat).set_passed(true);
    s_.set_passes(s_.passes() + 1);
  } else {
    for (auto& st : *s_.mutable_seats()) st.set_passed(false);
    s_.set_passes(0);
  }
  if (s_.group_deck_size() == 0) {
    Log(T("guerre_froide.groups_exhausted"));
    CeaseFire();
    return;
  }
  if (s_.passes() >= s_.num_seats()) {
    CeaseFire();
    return;
  }
  s_.set_to_act((seat + 1) % Seats());
}

// ----- Cease-fire -----

std::vector<int> GuerreFroideState::CeaseFireOrder() const {
  std::vector<int> order;
  for (int k = 0; k < Seats(); ++k) {
    const int seat = (s_.balance() + k) % Seats();
    if (!S(seat).civil_disorder()) order.push_back(seat);
  }
  const auto& bias = Objective().bias();
  auto best_of = [&](int seat, Faction f) {
    uint32_t best = 0;
    for (const auto& gs : S(seat).groups()) {
      const auto& card = g().group(gs.card());
      if (card.faction() == f) best = std::max(best, card.influence());
    }
    return best;
  };
  // Stable: seats the bias cannot part keep their order from the balance token.
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    if (Influence(a) != Influence(b)) return Influence(a) > Influence(b);
    for (int f : bias) {
      const uint32_t va = best_of(a, static_cast<Faction>(f));
      const uint32_t vb = best_of(b, static_cast<Faction>(f));
      if (va != vb) return va > vb;
    }
    return false;
  });
  return order;
}

void GuerreFroideState::CeaseFire() {
  s_.set_phase(PHASE_CEASE_FIRE);
  s_.set_to_act(-1);
  s_.clear_debriefing();
  s_.set_debriefing_dominating(-1);
  for (int seat = 0; seat < Seats(); ++seat) {
    const bool over = !WithinStability(seat, 0);
    M(seat).set_civil_disorder(over);
    Log(T(over ? "guerre_froide.influence_over" : "guerre_froide.influence", Seat{seat},
          Influence(seat), Objective().stability()));
  }
  SettleDisorder();
}

// Each player in civil disorder, in seat order, reveals the Agent X, which is terminated (the
// Deputy Director goes home) unless the Nobel Peace Prize sends it on leave instead. The agent is
// revealed before the Nobel question, so being asked tells the others nothing they do not see.
void GuerreFroideState::SettleDisorder() {
  for (int seat = 0; seat < Seats(); ++seat) {
    if (!S(seat).civil_disorder() || S(seat).agent_x_size() == 0) continue;
    const AgentKind x = AgentX(seat);
    if (!S(seat).agent_revealed()) {
      M(seat).set_agent_revealed(true);
      Log(T("guerre_froide.reveals", Seat{seat}, g().agent(x).name()));
    }
    if (Holds(seat, EVENT_NOBEL_PEACE_PRIZE) && x != AGENT_DEPUTY_DIRECTOR) {
      AskSeat(internal::ASK_NOBEL, seat);
      return;
    }
    DisorderFate(seat, /*nobel=*/false);
  }
  RankCeaseFire();
}

void GuerreFroideState::DisorderFate(int seat, bool nobel) {
  auto& st = M(seat);
  const AgentKind x = AgentX(seat);
  if (nobel) {
    UseEventCard(seat, EVENT_NOBEL_PEACE_PRIZE);
    st.clear_agent_x();
    st.add_leave(x);
    Outcome(seat, x, false, T("guerre_froide.disorder_nobel", Seat{seat}, g().agent(x).name()));
  } else if (x == AGENT_DEPUTY_DIRECTOR) {
    st.clear_agent_x();
    st.add_hq(x);
    std::sort(st.mutable_hq()->begin(), st.mutable_hq()->end());
    Outcome(seat, x, false, T("guerre_froide.disorder_deputy", Seat{seat}, g().agent(x).name()));
  } else {
    RemoveAgentX(seat, /*detained=*/false);
    Outcome(seat, x, false,
            T("guerre_froide.disorder_terminated", Seat{seat}, g().agent(x).name()));
  }
}

void GuerreFroideState::RankCeaseFire() {
  const std::vector<int> order = CeaseFireOrder();
  int disorder = 0;
  int last_disorder = -1;
  for (int seat = 0; seat < Seats(); ++seat) {
    if (S(seat).civil_disorder()) {
      ++disorder;
      last_disorder = seat;
    }
  }
  s_.set_dominating(order.empty() ? -1 : order[0]);
  s_.set_debriefing_dominating(s_.dominating());
  s_.set_runner_up(order.size() < 2 ? -1 : order[1]);
  // The single last-ranked player, for next turn's balance token.
  if (disorder == 0) {
    s_.set_loser(order.back());
  } else {
    s_.set_loser(disorder == 1 ? last_disorder : -1);
  }
  if (order.empty()) {
    Log(T("guerre_froide.all_disorder", Objective().name()));
    ObjectiveToBottom();
  } else {
    Log(T("guerre_froide.dominates", Seat{order[0]}, Objective().name()));
    // Two players: the one who kept order claims the objective at once.
    if (Seats() == 2 && disorder == 1) Claim(order[0], static_cast<uint32_t>(s_.objective()));
  }
  Debrief();
}

void GuerreFroideState::Claim(int seat, uint32_t objective) {
  auto& st = M(seat);
  st.add_won(objective);
  st.set_score(st.score() + g().objective(objective).vp());
  if (static_cast<int>(objective) == s_.objective()) {
    s_.set_objective_settled(true);
    s_.set_claimed_by(seat);
  }
  Log(T("guerre_froide.claims", Seat{seat}, g().objective(objective).name(),
        g().objective(objective).vp()));
}

void GuerreFroideState::ObjectiveToBottom() {
  s_.add_objective_deck(static_cast<uint32_t>(s_.objective()));
  s_.set_objective_settled(true);
  s_.set_claimed_by(-1);
  Log(T("guerre_froide.to_bottom", Objective().name()));
}

// ----- Debriefing -----

void GuerreFroideState::Debrief() {
  if (s_.phase() != PHASE_DEBRIEFING) {
    s_.set_phase(PHASE_DEBRIEFING);
    s_.set_initiative(1);
    for (int seat = 0; seat < Seats(); ++seat) {
      if (S(seat).agent_x_size() == 0 || S(seat).agent_revealed()) continue;
      M(seat).set_agent_revealed(true);
      Outcome(seat, AgentX(seat), false,
              T("guerre_froide.reveals", Seat{seat}, g().agent(AgentX(seat)).name()));
    }
  }
  while (s_.initiative() <= 7) {
    bool waiting = false;
    ResolveInitiative(s_.initiative(), &waiting);
    if (waiting) return;
    s_.set_initiative(s_.initiative() + 1);
  }
  if (!s_.objective_settled()) {
    if (s_.dominating() >= 0) {
      Claim(s_.dominating(), static_cast<uint32_t>(s_.objective()));
    } else {
      ObjectiveToBottom();
    }
  }
  // The end of the Debriefing: every group in play goes to the discard pile.
  for (int seat = 0; seat < Seats(); ++seat) {
    while (S(seat).groups_size() > 0) DiscardGroup(seat, 0);
  }
  Detente();
}

void GuerreFroideState::Detente() {
  s_.set_phase(PHASE_DETENTE);
  for (int seat = 0; seat < Seats(); ++seat) {
    auto& st = M(seat);
    if (st.agent_x_size() > 0) {
      const uint32_t x = st.agent_x(0);
      st.clear_agent_x();
      (x == AGENT_DEPUTY_DIRECTOR ? st.mutable_hq() : st.mutable_leave())->Add(x);
      std::sort(st.mutable_hq()->begin(), st.mutable_hq()->end());
    }
  }
  s_.set_objective(-1);
  for (int seat = 0; seat < Seats(); ++seat) {
    if (Holds(seat, EVENT_SPACE_RACE) && s_.objective_deck_size() > 0) {
      AskSeat(internal::ASK_SPACE_RACE, seat);
      return;
    }
  }
  FinishDetente();
}

void GuerreFroideState::FinishDetente() {
  uint32_t best = 0;
  for (const auto& seat : s_.seats()) best = std::max(best, seat.score());
  int at_best = 0;
  for (const auto& seat : s_.seats()) at_best += seat.score() == best;
  if (best >= Goal() && at_best == 1) {
    EndGame();
    return;
  }
  if (best >= Goal()) Log(T("guerre_froide.tie_plays_on", best));
  StartTurn();
}

void GuerreFroideState::EndGame() {
  s_.set_phase(PHASE_GAME_OVER);
  s_.set_to_act(-1);
  uint32_t best = 0;
  for (const auto& seat : s_.seats()) best = std::max(best, seat.score());
  s_.clear_winners();
  for (int seat = 0; seat < Seats(); ++seat) {
    if (S(seat).score() == best) {
      s_.add_winners(static_cast<uint32_t>(seat));
      Log(T("guerre_froide.wins", Seat{seat}, best));
    }
  }
}

void GuerreFroideState::UseEventCard(int seat, EventAbility event) {
  const uint32_t card = static_cast<uint32_t>(g().EventIndex(event));
  auto& st = M(seat);
  Erase(st.mutable_won(), card);
  st.set_score(st.score() - g().objective(card).vp());
  s_.add_objective_discard(card);
  Log(T("guerre_froide.uses_event", Seat{seat}, g().objective(card).name(),
        g().objective(card).vp()));
}

namespace {

engine::StatusOr<std::unique_ptr<engine::Game>> MakeGuerreFroide();

}  // namespace

}  // namespace plateau::games::guerre_froide

namespace plateau::data::guerre_froide {
extern const std::string_view kcards;
extern const std::string_view ktexts;
}  // namespace plateau::data::guerre_froide

namespace plateau::games::guerre_froide {
namespace {

engine::StatusOr<std::unique_ptr<engine::Game>> MakeGuerreFroide() {
  auto game = GuerreFroideGame::FromData(::plateau::data::guerre_froide::kcards,
                                         ::plateau::data::guerre_froide::ktexts);
  if (!game.ok()) return game.status();
  return std::unique_ptr<engine::Game>(std::move(game).value());
}

PLATEAU_REGISTER_GAME("guerre_froide", MakeGuerreFroide);

}  // namespace
}  // namespace plateau::games::guerre_froide
