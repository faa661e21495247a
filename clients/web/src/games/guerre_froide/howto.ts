// How to play Guerre Froide, for players: the rules in short, in the project's own words (RULES.md has
// every detail and decision).
export const howToPlay = {
  summary:
    "KGB against CIA (plus MI6 with three players): recruit groups to come close to each objective's stability without going over, and let your secret agent do the rest. First to 100 victory points (VP), or 65 with three players, wins.",
  sections: [
    {
      heading: "Goal",
      paragraphs: [
        "Each turn one objective (a nation or an event, worth 5 to 20 VP) is fought over. Anyone at or above the target at the end of a turn wins; if several are, the highest score wins, and a shared top score means one more turn.",
      ],
    },
    {
      heading: "Services and cards",
      paragraphs: [
        "The 21 objectives (15 nations, 6 events) show a stability, a population (1 to 5: the most groups you may hold), their VP and a bias (the four factions in order, for ties).",
        "The 24 groups form four factions (military, economic, media, political) with influence 1 to 6. Every service has the same agents: Master Spy (initiative 1), Deputy Director (2), Double Agent (3), Analyst (4), Assassin (5), Director (6), plus the Ambassador (5) with three players. The Cryptographer option adds one more (initiative 7).",
      ],
    },
    {
      heading: "Briefing and Planning",
      paragraphs: [
        "The top objective is turned up. From turn 2, the group discards return to the deck and the balance token goes to the lowest score (last turn's result breaks ties). Everyone then secretly picks an Agent X from headquarters (not one on leave or gone).",
      ],
    },
    {
      heading: "Influence Struggle",
      paragraphs: [
        "The balance token holder picks who starts; turns then go round in seat order. Your influence is the total of your groups, ready or mobilized. On your turn, do one thing:",
      ],
      list: [
        "Recruit the top group, ready: never more groups than the population; compulsory if you hold none.",
        "Activate a ready group: it becomes mobilized and uses its faction's power.",
        "Military: discard another group in play, anyone's.",
        "Economic: flip another non-economic group between ready and mobilized, without using its power.",
        "Media: secretly look at the top group, then recruit it, discard it or leave it on top.",
        "Political: take an opponent's group or give them one of yours (never to someone who would be, or already is, over the stability).",
        "Use one of your events for this phase, or pass (you may still act later).",
        "It ends when all players pass in a row, or at once if the group deck runs out.",
      ],
    },
    {
      heading: "Cease-fire",
      paragraphs: [
        "Anyone above the stability causes civil disorder: their Agent X is terminated, unless it is the Deputy Director or they use the Nobel Peace Prize. The others are ranked by influence (ties: strongest group of the bias's first faction, then the next), and the best-ranked dominates.",
        "With two players, if one is in civil disorder the other claims the objective at once; if both are, it goes to the bottom of the deck. With three, nothing is claimed yet; it goes to the bottom only if all three are in disorder.",
      ],
    },
    {
      heading: "Debriefing and Détente",
      paragraphs: [
        "The remaining Agents X are revealed and act by initiative, lowest first, according to who dominates. An objective still on the table and unclaimed then goes to the dominating service. Each Agent X goes on leave for a turn, except the Deputy Director, who returns to headquarters.",
      ],
      list: [
        "Master Spy: if another service dominates, you claim the objective; if yours does, the opponent (with three, the runner-up) claims it.",
        "Deputy Director: no effect, but never terminated, detained or on leave.",
        "Double Agent: send an opponent's headquarters agent on leave, or see the others' Agent X before choosing next turn.",
        "Analyst: reorder the top three groups at the next Briefing.",
        "Ambassador: yours dominates, detain an opponent's Agent X; another dominates, detain theirs.",
        "Assassin: yours dominates, terminate an opponent's Agent X; the objective goes to the bottom unless already claimed.",
        "Director: yours dominates, also claim the bottom objective.",
        "Cryptographer: draw version, 5 VP if the top group has influence 4, 5 or 6; bias version, 10 VP if its faction leads the bias.",
      ],
    },
    {
      heading: "Events and the end",
      paragraphs: ["Won events can be used once, in their phase, at the cost of their VP."],
      list: [
        "Space Race (Détente): reorder the top three objectives.",
        "Nobel Peace Prize (Cease-fire): in civil disorder, your Agent X goes on leave instead of being terminated.",
        "Nuclear Escalation (Struggle): discard up to two groups in play.",
        "Live Benefit (Struggle): recruit the top group of the discard pile.",
        "Olympic Games (Struggle): your mobilized groups become ready.",
        "Summit Meeting (Planning): your agents on leave return before you choose.",
        "An empty objective deck is rebuilt from used events; if there are none, the highest score wins at once.",
      ],
    },
    {
      heading: "On this site",
      paragraphs: [
        "In Planning, click an agent under 'Choose your Agent X'. On your move, press Recruit, Pass or an event button, or Activate under a ready group, then click the highlighted group it targets (and, for a political group, the button on the receiving player's file). Back and Cancel take a choice back before the move is sent.",
        "Other questions (Media card, Analyst, Double Agent, targets, events) appear in a panel below the board. The server checks every move: a refused move changes nothing and says why.",
      ],
    },
  ],
};
