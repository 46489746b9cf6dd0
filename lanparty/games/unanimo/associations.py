"""What the bots think of for each subject: English words, the most common first.

Keyed by the subject's English name (``SUBJECTS[i][0]``). Several bots at one table draw from
the same lists, so they share words and score; the heuristic bot writes the first eight.
No word here shares a root with its subject (tested).
"""

from __future__ import annotations

from typing import Final

__all__ = ["ASSOCIATIONS"]

_TABLE = """
Beach: sand, sea, sun, waves, swimming, towel, holiday, shells, summer, sunscreen, surf
Winter: snow, cold, ice, Christmas, scarf, skiing, gloves, snowman, frost, coat
Birthday: cake, presents, candles, party, balloons, friends, song, card, age, wishes
Hospital: doctor, nurse, ambulance, bed, sick, injection, operation, medicine, white, pain
Elephant: trunk, grey, big, Africa, ears, ivory, heavy, tusks, memory, circus
Pirate: ship, treasure, parrot, eye patch, sword, flag, island, rum, captain, hook
Kitchen: cooking, oven, fridge, knife, food, table, sink, pans, recipe, chef
Football: goal, kick, team, stadium, referee, match, grass, fans, penalty, shirt
Volcano: lava, eruption, fire, mountain, hot, ash, crater, magma, smoke, danger
Wedding: bride, ring, dress, church, groom, love, cake, white, party, flowers
Library: books, silence, reading, shelves, quiet, study, students, card, borrow, desk
Rain: umbrella, wet, water, clouds, puddle, drops, grey, boots, storm, autumn
Pizza: cheese, Italy, tomato, oven, slice, ham, dough, mushrooms, delivery, round
Castle: king, tower, knight, princess, walls, drawbridge, moat, stone, queen, dragon
Dentist: teeth, pain, drill, chair, toothbrush, mouth, fear, white, cavity, filling
Circus: clown, tent, acrobat, lion, juggler, trapeze, ring, elephant, show, magician
Snowman: carrot, frozen, winter, cold, hat, scarf, buttons, ice, white, melting
Train: railway, station, ticket, wagon, travel, tracks, locomotive, journey, fast, steam
Moon: night, stars, astronaut, sky, full, crescent, white, space, wolf, craters
Coffee: cup, morning, black, milk, sugar, espresso, hot, bitter, beans, caffeine
Dog: bone, bark, tail, walk, puppy, friend, leash, fur, kennel, paws
Cat: mouse, milk, purr, whiskers, claws, kitten, fur, meow, tail, paws
Forest: trees, wood, green, mushrooms, leaves, animals, wolf, deer, path, moss
Desert: sand, camel, hot, sun, dry, dunes, cactus, thirst, oasis, Sahara
School: teacher, pupils, homework, classroom, pencil, lesson, blackboard, exam, books, bell
Airport: plane, suitcase, passport, flight, ticket, holiday, runway, pilot, gate, security
Chocolate: sweet, brown, cocoa, milk, bar, Easter, sugar, dark, melting, candy
Christmas: tree, presents, Santa, snow, December, gifts, star, family, reindeer, carols
Dragon: fire, wings, scales, castle, knight, princess, flames, monster, cave, legend
Robot: metal, machine, computer, future, artificial, battery, android, science, steel, program
Guitar: music, strings, rock, song, concert, chords, wood, band, acoustic, electric
Bicycle: wheels, pedals, ride, helmet, chain, saddle, cycling, race, bell, brakes
Tent: camping, sleeping bag, holiday, outdoors, canvas, forest, fire, pegs, nature, night
Farm: cow, tractor, pig, hay, chicken, horse, barn, fields, sheep, milk
Bee: honey, sting, yellow, flowers, buzz, hive, queen, black, wax, pollen
Spider: web, legs, eight, fly, fear, black, hairy, insect, poison, tarantula
Ocean: water, sea, waves, fish, blue, whale, salt, deep, boat, shark
Island: sea, palm tree, sand, beach, boat, holiday, coconut, treasure, sun, alone
Mountain: snow, climbing, peak, high, skiing, rocks, hiking, top, Alps, valley
Sun: hot, yellow, light, summer, beach, sky, warm, star, heat, sunglasses
Storm: thunder, lightning, rain, wind, clouds, dark, fear, tempest, hurricane, power cut
Fire: hot, flames, red, smoke, warmth, wood, burn, heat, danger, matches
Ice cream: cold, vanilla, cone, summer, chocolate, strawberry, sweet, melting, scoop, Italy
Cheese: mouse, milk, yellow, holes, France, cow, smell, pizza, goat, cheddar
Bread: baker, flour, butter, toast, breakfast, sandwich, crumbs, oven, baguette, loaf
Apple: red, fruit, tree, green, pie, Newton, worm, juice, orchard, Adam
Banana: yellow, monkey, fruit, peel, potassium, split, bunch, tropical, ripe, smoothie
Egg: chicken, breakfast, yolk, white, shell, omelette, Easter, boiled, fried, nest
Tea: cup, hot, England, milk, leaves, green, sugar, teapot, afternoon, herbal
Wine: red, grapes, white, bottle, glass, France, vineyard, drunk, cork, alcohol
Cake: birthday, candles, sweet, chocolate, cream, oven, sugar, slice, party, flour
Clown: circus, red nose, laugh, funny, makeup, shoes, balloon, wig, children, juggling
King: crown, queen, throne, castle, royal, palace, power, prince, sceptre, gold
Princess: crown, Cinderella, castle, dress, fairy tale, pink, frog, beautiful, tiara, king
Witch: broom, hat, magic, cat, Halloween, spell, black, cauldron, potion, wand
Ghost: white, sheet, scary, haunted, castle, night, boo, spirit, Halloween, chains
Vampire: blood, teeth, bat, night, Dracula, coffin, garlic, cape, bite, castle
Knight: armour, sword, horse, castle, shield, king, helmet, princess, dragon, quest
Cowboy: horse, hat, gun, Texas, lasso, boots, saloon, desert, cattle, sheriff
Astronaut: space, rocket, moon, stars, helmet, spacesuit, gravity, NASA, planet, orbit
Doctor: hospital, nurse, stethoscope, prescription, sick, white coat, patient, health, pills
Police: car, siren, thief, prison, uniform, handcuffs, law, blue, detective, crime
Firefighter: flames, truck, hose, water, ladder, helmet, red, rescue, siren, smoke
Teacher: school, pupils, lesson, blackboard, homework, chalk, class, exam, marks, knowledge
Cinema: film, popcorn, screen, actor, ticket, seats, dark, star, Hollywood, trailer
Museum: art, paintings, history, statues, old, tickets, exhibition, guide, ancient, quiet
Market: fruit, vegetables, stalls, shopping, money, fish, fresh, crowd, bargain, flowers
Bank: money, account, card, cash, safe, loan, savings, interest, cheque, robbery
Garden: flowers, grass, trees, vegetables, roses, spade, watering can, lawn, birds, hedge
Bathroom: shower, towel, toothbrush, soap, bubbles, mirror, toilet, water, sink, tiles
Bed: sleep, pillow, blanket, night, sheets, dream, mattress, rest, tired, duvet
Window: glass, light, curtains, view, open, frame, sun, house, pane, shutters
Door: key, handle, open, lock, house, wood, knock, bell, entrance, closed
Key: door, lock, open, car, house, metal, chain, secret, safe, ring
Clock: time, hours, minutes, alarm, hands, tick, watch, wall, seconds, late
Mirror: reflection, glass, face, beauty, bathroom, image, makeup, vanity, broken, Snow White
Umbrella: rain, wet, open, black, weather, wind, storm, handle, grey, protection
Glasses: eyes, see, lenses, reading, frames, optician, sight, sun, blind, contact
Hat: head, cap, sun, cowboy, magician, rabbit, wool, fashion, straw, wedding
Shoe: foot, laces, walking, leather, heel, sock, shop, pair, sole, trainers
Telephone: call, ring, number, mobile, voice, talk, message, hello, line, battery
Computer: screen, keyboard, mouse, internet, games, work, software, email, programming, laptop
Television: screen, remote, news, film, channel, sofa, series, adverts, watching, cartoon
Camera: photo, picture, flash, lens, holiday, memories, selfie, zoom, film, tourist
Book: reading, pages, story, chapter, author, words, novel, cover, paper, writer
Newspaper: politics, ink, journalist, headlines, reading, morning, articles, press, crossword, print
Envelope: letter, stamp, post, mail, address, paper, white, postman, card, seal
Car: wheels, drive, road, engine, petrol, speed, garage, licence, traffic, horn
Boat: water, sea, sail, fishing, river, captain, harbour, oars, waves, anchor
Plane: sky, flying, airport, pilot, wings, travel, holiday, clouds, ticket, passengers
Rocket: space, moon, launch, astronaut, fire, fast, stars, NASA, countdown, fuel
Submarine: sea, underwater, deep, yellow, periscope, water, navy, ocean, fish, torpedo
Balloon: party, air, red, birthday, pop, helium, colours, float, string, children
Kite: wind, sky, string, flying, tail, beach, colours, children, paper, high
Skateboard: wheels, tricks, ramp, kickflip, helmet, skatepark, fall, speed, street, youth
Horse: riding, saddle, gallop, mane, hay, farm, race, pony, cowboy, stable
Cow: milk, farm, grass, moo, black and white, cheese, bull, field, calf, beef
Lion: king, mane, Africa, roar, jungle, savanna, cat, yellow, zoo, pride
Monkey: banana, tree, jungle, zoo, tail, climbing, funny, chimpanzee, ape, cheeky
Penguin: ice, black and white, cold, fish, snow, South Pole, Antarctica, waddle, bird, swimming
Shark: teeth, sea, danger, fin, fish, jaws, ocean, bite, fear, grey
Snake: poison, venom, hiss, skin, long, jungle, bite, cobra, fear, scales
Owl: night, wise, eyes, bird, feathers, hoot, tree, wisdom, Harry Potter, forest
Frog: green, jump, pond, prince, toad, water, croak, tadpole, legs, lily pad
Butterfly: wings, colours, flowers, caterpillar, flying, spring, beautiful, insect, light, garden
Mouse: cheese, cat, small, grey, tail, trap, squeak, computer, hole, rat
Rabbit: carrot, ears, jump, white, Easter, hole, fur, pet, magician, bunny
Tree: leaves, wood, green, forest, roots, branches, shade, bark, nature, oak
Flower: rose, garden, spring, petals, smell, colours, bee, bouquet, red, tulip
Rainbow: colours, sky, sun, red, clouds, arc, light, seven, beautiful, gold
Star: sky, night, bright, moon, shining, sun, planet, wish, twinkle, space
Music: song, notes, guitar, piano, concert, dance, radio, singer, melody, rhythm
Dance: music, party, ballet, rhythm, steps, disco, salsa, couple, shoes, waltz
Holiday: sun, beach, travel, rest, hotel, summer, suitcase, sea, plane, relax
Money: coins, bank, cash, rich, euro, dollar, wallet, notes, gold, work
Gold: money, yellow, jewellery, treasure, rich, ring, metal, precious, medal, shiny
Treasure: gold, pirate, map, chest, island, jewels, coins, hidden, rich, diamonds
Map: travel, roads, country, world, compass, treasure, paper, directions, lost, atlas
Party: music, friends, dance, drinks, fun, birthday, cake, night, balloons, guests
Night: dark, moon, stars, sleep, black, dream, owl, bed, quiet, pyjamas
Autumn: leaves, rain, orange, brown, wind, mushrooms, September, school, cold, chestnuts
Summer: sun, holiday, beach, hot, swimming, ice cream, sea, July, August, sunglasses
Swimming pool: water, lanes, summer, blue, diving, towel, chlorine, lifeguard, splash, float
Zoo: animals, lion, elephant, monkey, cages, giraffe, visit, children, keeper, tiger
Restaurant: food, waiter, menu, chef, table, dinner, bill, kitchen, wine, tip
Baby: bottle, nappy, cry, milk, cute, pram, small, mother, sleep, rattle
Grandmother: grandchildren, old, cake, knitting, love, family, glasses, cooking, stories, kind
Soup: hot, spoon, vegetables, bowl, tomato, winter, chicken, bread, warm, onion
Honey: bee, sweet, yellow, bear, hive, tea, sticky, jar, gold, flowers
Lemon: yellow, sour, juice, fruit, tea, squeeze, citrus, vitamin, sharp, zest
Strawberry: red, fruit, cream, summer, jam, sweet, tart, seeds, pick, dessert
Carrot: orange, rabbit, vegetable, snowman, eyes, soup, crunchy, garden, root, juice
Hedgehog: spines, prickly, small, night, ball, autumn, garden, apple, road, leaves
Snail: slow, shell, slime, garden, rain, France, lettuce, horns, slug, spiral
Squirrel: nuts, tree, tail, acorns, red, forest, jump, winter, hazelnuts, park
"""


def _parse(text: str) -> dict[str, tuple[str, ...]]:
    out: dict[str, tuple[str, ...]] = {}
    for line in text.strip().splitlines():
        subject, _, words = line.partition(":")
        out[subject] = tuple(w.strip() for w in words.split(","))
    return out


ASSOCIATIONS: Final[dict[str, tuple[str, ...]]] = _parse(_TABLE)
"""English words each subject brings to mind, by the subject's English name."""
