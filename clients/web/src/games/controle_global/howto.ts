// How to play Contrôle Global, for players: the rules in short, in the project's own words (RULES.md in the engine's folder has every number and decision).
import type { HowToPlay } from "../types";

export const howToPlay: HowToPlay = {
  summary:
    "Three to six hidden powers (a drug giant, a wealthy cult, a lobbying network, a cartel...) spread their influence over a world of regions with cards. Every cube pushes the whole world towards globalisation, which opens stronger cards to all but wakes civil society. Score from your globalisation levels and from the regions you dominate at the end.",
  sections: [
    {
      heading: "The world",
      paragraphs: [
        "Each game draws a new map: three regions per player plus two, linked by borders. Every region has a development level (1 or more) and a stock of raw materials, energy and food. Poorer regions start with bigger stocks.",
        "Influence is counted in cubes of six categories: Politics, Military, Religions, Commerce, Media and Biology. You are present in a region as soon as you own one cube there, of any category. Resources you own sit in front of you for everyone to see.",
      ],
    },
    {
      heading: "Globalisation",
      paragraphs: [
        "For each category, all the cubes on the map add up to a world level from 0 to VI. With three players the steps are 1, 3, 6, 10, 15 and 21 cubes; they climb a little with more players.",
        "Each category also ranks all the players by their own cubes in it, highest first; a tie never lets a player overtake. The leader gets the world level, the second one level less, and so on, but never less than their own cubes alone would give, and never below 0. Even a player with no cube keeps a place at the bottom.",
        "At the end of every round each player's levels are written down. Those noted levels are the ones that count for cards and investments during the next round, and they also give victory points (VP): 0, 0, 1, 3, 5, 7 and 10 for levels 0 to VI, added over the six categories.",
      ],
    },
    {
      heading: "Setting up",
      list: [
        "The last player in turn order chooses a faction first: it gives two starting categories, some resources and a lasting power.",
        "Then everyone picks a first region in turn order, and a second one in reverse order. No region can be the starting pick of more than two players.",
        "You put one cube of each of your two categories in each of your two regions.",
        "Everyone draws four cards, one at a time, from the lower piles of their choice.",
      ],
      paragraphs: [],
    },
    {
      heading: "Your turn",
      paragraphs: ["Players act in turn order. On your turn, in this order:"],
      list: [
        "Play one card and use one of its effects, or none at all. Each effect asks for levels; for every level you are short, pay one resource of any kind.",
        "Invest as often as you like and can pay for: add a cube where you are present (2 resources), make another player lose a cube where you are present (3), or develop a region where you are present (2).",
        "Privatise: take the resources printed on your card from regions where you are present that still hold them. The stocks only come back through cards.",
        "Discard cards you do not want (1 resource each), then draw back up to four (five for the media empire), one by one, from any pile, lower or upper.",
      ],
    },
    {
      heading: "Drawing while the next player starts",
      paragraphs: [
        "Once you have privatised, the next player begins at once; your discarding and drawing stays open beside their turn. If you are still drawing when they reach their own draw, your draw is made for you (from the lower pile of your best level). The last player of a round draws before civil society acts.",
      ],
    },
    {
      heading: "Cards",
      paragraphs: [
        "Each category has a lower pile (effects of levels I to III) and an upper pile (IV to VI). A card holds one to three effects, each asking for a higher level than the one before. Upper cards also carry a civil-society effect at the bottom that nobody can play.",
        "An effect names its regions and players with letters (R a region where you are present, V one of its neighbours, U another player, and so on) and then lists what happens, step by step. When an effect leaves you a choice (which region, which player, which category), the game asks you as a question.",
      ],
    },
    {
      heading: "Civil society",
      paragraphs: [
        "When a category's world level climbs higher than it has been this round, its token turns red and, for each new level, the top card of its upper pile is laid face down in the civil-society area.",
        "When everyone has played and drawn, those cards are turned over in the order they arrived and their civil-society effects strike: usually the region most crowded with that kind of influence and its strongest player, or the world leader of the category. They often give the region development or resources back, and they hit harder when the category is at V or VI.",
      ],
    },
    {
      heading: "End of a round and of the game",
      paragraphs: [
        "Levels are noted and the next turn order is set by VP from levels, best first (ties keep the old order). If, once civil society has struck, some category stands at world level VI, the game is over; it also stops after round 20. Rooms may choose to end when two categories are at VI (six players) or at V (three players).",
        "At the end each region pays out its development as VP to the players with cubes there. If there are enough points for every cube, each cube is worth one point; otherwise the biggest presence scores first until it comes down to the next one, then those tied share, and points that cannot be split evenly are lost. Highest total wins; region VP break a tie.",
      ],
    },
    {
      heading: "On this board",
      paragraphs: [
        "The map shows every region with its borders; the list beside it gives each region's development, stock and the cubes of every player per category. The globalisation table shows each category's cubes in the world, its level and the players' order with their live levels. Your hand shows the cards in full; other hands show only their backs, that is, which pile each card came from.",
        "Your moves are offered in the panel above your hand: click a highlighted card or region, or pick from the list, then press Play. Questions appear in the panel under the board.",
      ],
    },
  ],
};
