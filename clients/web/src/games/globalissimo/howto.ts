// How to play Globalissimo, for players: the rules in short, in the project's own words (RULES.md has
// every detail and decision).
export const howToPlay = {
  summary:
    "A world geography game for 2 to 6 players: each round you bet on where a country ranks in a statistic such as population or area, and the closer your bet, the further your pawn advances. Whoever has gone furthest along the score track after the last round wins.",
  sections: [
    {
      heading: "Goal",
      paragraphs: [
        "Each point moves your pawn one square along the score track. To get past a barrier on the track, you must answer a geography question.",
        "The furthest pawn at the end wins; a tie goes to whoever took more barriers, and players still level share their place.",
      ],
    },
    {
      heading: "Setup",
      paragraphs: [
        "The track has 30 score squares after the start square. 14 barriers, 7 orange and 7 violet, are laid on the barrier squares in a random colour order. All pawns begin on the start square, and the player in seat 0 goes first in round 1.",
      ],
      list: [
        "With 2 to 4 players, 5 country cards are laid out each round. With 5 or 6 players, 6 cards are laid out.",
        "The cards lie flag side up, so you only see each country's flag and name.",
        "A full game lasts 10 rounds. The room can pick a shorter game of 1 to 10 rounds.",
      ],
    },
    {
      heading: "A round: placing your tile",
      paragraphs: [
        "Each round a new category card names a statistic, with its unit and source. Starting with the first player and going round the table, every player places one numbered tile on a country card that does not yet have a tile.",
        "The number on your tile is the position you think that country will take among the cards on display, where 1 means the highest value. Tiles go from 1 up to the number of cards on display. Two players may use the same number, but each card can hold only one tile.",
      ],
    },
    {
      heading: "Reveal and scoring",
      paragraphs: [
        "Then the cards are turned over and ranked from highest to lowest value. Equal values share a position and the positions they would have used are skipped: two cards tied for 2nd leave no 3rd (1, 2, 2, 4, 5).",
        "Scoring goes player by player, starting with the first player. Compare your tile with the real position of your card:",
      ],
      list: [
        "Exact: 3 points.",
        "One off: 2 points.",
        "Two off: 1 point.",
        "Three or more off: 0 points.",
        "Skipped positions still count in the distance. A tile 4 on a card ranked 2nd is two off and scores 1.",
      ],
    },
    {
      heading: "Barriers",
      paragraphs: [
        "Barrier squares are not score squares, so crossing one costs no point. While a barrier is still standing, your pawn stops at it and you must answer a question about the country on the top card of the deck.",
      ],
      list: [
        "Orange barrier: name that country's capital.",
        "Violet barrier: find that country on the world map.",
        "Right answer: you take the barrier, which counts in a tie at the end, and your pawn carries on with the points you have left.",
        "Wrong answer: your pawn stays on the square just before the barrier and the rest of your points are lost. The right answer is not shown yet, because anyone else who reaches that barrier later in the same round gets the same question. It is shown to everyone once someone answers it right, or at the end of the round.",
        "Once someone has taken a barrier, every pawn passes that square freely.",
        "If one move reaches two barriers, each barrier asks its own question.",
        "Capital answers are forgiving. Case, accents, punctuation, spaces and a leading article such as 'the' or 'la' are ignored, and every capital listed on the card is accepted.",
      ],
    },
    {
      heading: "End of a round and of the game",
      paragraphs: [
        "After scoring, the displayed cards are discarded, new country cards are dealt and the first-player role passes to the next seat. A new category then starts the next round.",
        "After the last round, the furthest pawn wins. A perfect game, 3 points in each of 10 rounds, ends exactly on the last of the 30 squares.",
      ],
    },
    {
      heading: "On this site",
      paragraphs: [
        "The banner at the top tells you whose turn it is. The category card shows the round, the statistic, its unit and source, and how many cards are left in the deck.",
        "On your placing turn, pick a number in the row of tiles ('Your guess: which position (1 = highest)?') and click a country card marked 'place here'. You can do these in either order. Your tile is sent as soon as you have chosen both.",
        "When your pawn reaches a barrier, the question appears in a panel above the cards. For an orange barrier, type the capital and press Answer. For a violet barrier, click a country on the world map to select it, then press Confirm: until then you can click another country, click the selected one again or press Clear. Drag the map to move it, and zoom with the mouse wheel or the + and − buttons. The map never names any country, not even the one you selected. Answers already refused are shown in the panel.",
        "Below are the score track (taken barriers are faded), each player's distance and barriers, the last round revealed and the log. Once a question is settled, the Answers panel shows everyone its answer, with the country outlined on a small map for a map question, for this round and the last. The server checks every move; a refused move changes nothing and the reason is shown.",
      ],
    },
  ],
};
