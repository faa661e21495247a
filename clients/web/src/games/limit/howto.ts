// How to play LIMIT, for players: the rules in short, in the project's own words (RULES.md has
// every detail and decision).
export const howToPlay = {
  summary:
    "Lead a nation through at most 7 generations, 1850 to 2060: feed it, raise its standard of living and keep order without exhausting the planet. The best score after a final resilience test wins; alone, you face the star nation.",
  sections: [
    {
      heading: "Your nation",
      paragraphs: [
        "Population has 9 ranks (1, 2, 3, 5, 10, 20, 30, 50, 100); the renewable (R), industrial (I) and military (M) factories have 8 (1 to 50). From rank 4, I and M burn fossil (F) and make pollution (P). R rises at most one rank above your territories (T).",
        "Classes A (top) to E have a standard of living of 1 to 4; none may live better than the class above. Disorder runs 0 to 10: 0 to 1 boom, 2 to 8 progress, 9 to 10 revolt; steps past 10 become destabilisation tokens (D).",
      ],
    },
    {
      heading: "Setup",
      paragraphs: [
        "You start with population on rank 2, R on rank 2, I and M on rank 1, disorder at 5 and every class at 1. A random nation gets the Leadership tile.",
      ],
      list: [
        "Stocks: 8 F, 2 R, 1 I, 0 M, 5 $ (4 $ with the first-game option), 5 T.",
        "Hand: Schooling, Public spending, Industrialisation, Craft.",
        "Set aside: Market access, Robotisation, Mass destruction.",
        "Three decks of 10: Society, Army & Economy, Production.",
      ],
    },
    {
      heading: "Political phase",
      paragraphs: ["Class A's level at the start of the generation counts."],
      list: [
        "Technology: A at 2 gives Market access, at 3 Robotisation, at 4 Mass destruction.",
        "New policy, all at once: pick a deck and draw 5 cards (10 if A is 4). Keep 1 (2 if A is 3 or more); the rest go under the deck.",
        "Hand limit: 5, 6, 7 or 8 by A's level; extras go under their decks.",
        "Political decisions, in order from the leader: play a card, then play a second or pass; or pass at once. Passing is final unless another nation targets you.",
        "You must pay a card's whole cost ($ goes to the World Bank). A disorder cost must fit: disorder plus cost may not exceed 10.",
        "Then immediate cards return to the hand; permanent cards stay in play.",
      ],
    },
    {
      heading: "Social phase",
      paragraphs: ["Nations play these steps simultaneously. Class C's level gives the column (1 to 4)."],
      list: [
        "Feeding: 1 R per population. Per unfed rank: population -1 rank, a factory of your choice -1 rank, disorder +3. R above 10 is then lost.",
        "Consumption: spend I equal to your population one rank lower (column 2), your population (3) or one rank higher (4). Per missing rank: a standard -1, disorder +2.",
        "Growth: columns 1 and 2 add a population rank; so do 2 or more transition tiles (one per class first reaching level 3), and then up to 2 tiles are removed.",
        "Economic growth: column 1 R +1, 2 R +1 and I +1, 3 I or M +1, 4 I or M -1.",
        "Taxation: 2, 3, 3 or 5 $ per population from the World Bank. If it runs dry, a financial crisis is coming.",
        "Production of R, I, then M. Per rank lacking fossil: disorder +2 and that factory -1 rank.",
        "Public order, by column: revolt costs military or money; progress may raise a standard; boom may raise one and pay money.",
        "Class struggle: disorder rises by A minus E.",
      ],
    },
    {
      heading: "International phase",
      paragraphs: [
        "More than 15 M costs 1 D. Then crises strike: financial if the World Bank ran dry this generation, ecological if the pollution reserve is empty, military if the destabilisation reserve is empty. Each hurts more than the last of its kind.",
        "In solo an event card is drawn. Leadership passes to the left. The game ends after generation 7, or as soon as 4 crises have happened.",
      ],
    },
    {
      heading: "Final score",
      paragraphs: ["First a resilience test: feeding, consumption and production once more, with shortages but no crises. Then:"],
      list: [
        "(A + C + E) times the demographic index of your population rank (1, 1, 1, 2, 2, 3, 4, 5, 5).",
        "(5 minus the number of crises) per full 10 $, when positive.",
        "5 per territory; 1 per full 3 M.",
        "-2 per pollution token; -1 per destabilisation token.",
      ],
    },
    {
      heading: "Alliances (option)",
      paragraphs: [
        "With this option (not solo), an Alliance step follows the crises: in turn, each nation may propose a military or economic alliance, leave one, exclude a member, or pass. A new alliance needs everyone concerned to agree and a 2 $ fee. Allies may help with shortages, war cards or card costs.",
      ],
    },
    {
      heading: "On this site",
      paragraphs: [
        "Each decision (deck, cards to keep, a class, an amount, a vote) appears in a panel near the top of the board, with the facts you need beside it.",
        "On your political turn, click a card marked 'click to play', set its choices and press 'Play this card', or press Pass. Removable permanent cards get a Remove button.",
        "After each social phase (and the final resilience test) a table sums up what every nation fed, consumed, produced, earned and lost, with the crises that followed; it stays above the nation boards until you press 'Got it'.",
        "When another nation's card hits you, a notice says whose card it was and what it changed on your board, until you dismiss it.",
        "'Full board' opens another nation. The server checks every move: a refused move changes nothing.",
      ],
    },
  ],
};
