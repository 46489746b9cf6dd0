"""What the bots think of for each subject, in each writing language, the most common first.

Keyed by the subject's English name (``SUBJECTS[i][0]``); each table (English, Polish,
Spanish) has a line for every subject. Several bots at one table draw from the same list (the
table's writing language), so they share words and score; the heuristic bot writes the first
eight. No word here shares a root with its subject in its language (the same-root rule of
:mod:`.roots`: a test walks every list).
"""

from __future__ import annotations

from typing import Final

from .subjects import LANGUAGES, SUBJECTS

__all__ = ["ASSOCIATIONS", "BY_LANGUAGE", "ideas"]

_EN = """
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
Sun: hot, yellow, light, summer, beach, sky, warm, star, heat, rays
Storm: thunder, lightning, rain, wind, clouds, dark, fear, tempest, hurricane, power cut
Fire: hot, flames, red, smoke, warmth, wood, burn, heat, danger, matches
Ice cream: cold, vanilla, cone, summer, chocolate, strawberry, sweet, melting, scoop, Italy
Cheese: mouse, milk, yellow, holes, France, cow, smell, pizza, goat, cheddar
Bread: baker, flour, butter, toast, breakfast, sandwich, crumbs, oven, baguette, loaf
Apple: red, fruit, tree, green, pie, Newton, worm, juice, orchard, Adam
Banana: yellow, monkey, fruit, peel, potassium, split, bunch, tropical, ripe, smoothie
Egg: chicken, breakfast, yolk, white, shell, omelette, Easter, boiled, fried, nest
Tea: cup, hot, England, milk, leaves, green, sugar, kettle, afternoon, herbal
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

_PL = """
Beach: piasek, morze, słońce, fale, opalanie, ręcznik, wakacje, muszelki, lato, parasol
Winter: śnieg, zimno, lód, święta, szalik, narty, rękawiczki, bałwan, mróz, płaszcz
Birthday: tort, prezenty, świeczki, impreza, balony, przyjaciele, życzenia, sto lat, wiek, kartka
Hospital: lekarz, pielęgniarka, karetka, łóżko, chory, zastrzyk, operacja, lekarstwa, biały, ból
Elephant: trąba, szary, duży, Afryka, uszy, zoo, ciężki, kły, pamięć, cyrk
Pirate: statek, skarb, papuga, opaska, szabla, flaga, wyspa, rum, kapitan, hak
Kitchen: gotowanie, piekarnik, lodówka, nóż, jedzenie, stół, zlew, garnki, przepis, kucharz
Football: bramka, gol, drużyna, stadion, sędzia, mecz, trawa, kibice, rzut karny, koszulka
Volcano: lawa, erupcja, ogień, góra, gorąco, popiół, krater, magma, dym, niebezpieczeństwo
Wedding: panna młoda, obrączka, suknia, kościół, pan młody, miłość, tort, biały, wesele, kwiaty
Library: książki, cisza, czytanie, półki, spokój, nauka, studenci, karta, wypożyczanie, biurko
Rain: parasol, mokro, woda, chmury, kałuża, krople, szaro, kalosze, burza, jesień
Pizza: ser, Włochy, pomidor, piec, kawałek, szynka, ciasto, grzyby, dostawa, okrągła
Castle: król, wieża, rycerz, księżniczka, mury, most zwodzony, fosa, kamień, królowa, smok
Dentist: zęby, ból, wiertło, fotel, szczoteczka, usta, strach, biały, próchnica, plomba
Circus: klaun, namiot, akrobata, lew, żongler, trapez, arena, słoń, pokaz, magik
Snowman: marchewka, zima, śnieg, zimno, kapelusz, szalik, guziki, lód, biały, węgielki
Train: kolej, dworzec, bilet, wagon, podróż, tory, lokomotywa, konduktor, szybko, para
Moon: noc, gwiazdy, astronauta, niebo, pełnia, rogal, biały, kosmos, wilk, kratery
Coffee: filiżanka, poranek, czarna, mleko, cukier, espresso, gorąca, gorzka, ziarna, kofeina
Dog: kość, szczekanie, ogon, spacer, szczeniak, przyjaciel, smycz, sierść, buda, łapy
Cat: mysz, mleko, mruczenie, wąsy, pazury, kociak, sierść, miau, ogon, łapy
Forest: drzewa, drewno, zielony, grzyby, liście, zwierzęta, wilk, jeleń, ścieżka, mech
Desert: piasek, wielbłąd, gorąco, słońce, sucho, wydmy, kaktus, pragnienie, oaza, Sahara
School: nauczyciel, uczniowie, zadanie domowe, klasa, ołówek, lekcja, tablica, egzamin, książki,
    dzwonek
Airport: samolot, walizka, paszport, lot, bilet, wakacje, pas startowy, pilot, bramka, kontrola
Chocolate: słodka, brązowa, kakao, mleko, tabliczka, Wielkanoc, cukier, gorzka, cukierki, pralinki
Christmas: choinka, prezenty, Mikołaj, śnieg, grudzień, upominki, gwiazdka, rodzina, renifer, kolędy
Dragon: ogień, skrzydła, łuski, zamek, rycerz, księżniczka, płomienie, potwór, jaskinia, legenda
Robot: metal, maszyna, komputer, przyszłość, sztuczny, bateria, android, nauka, stal, program
Guitar: muzyka, struny, rock, piosenka, koncert, akordy, drewno, zespół, akustyczna, elektryczna
Bicycle: koła, pedały, jazda, kask, łańcuch, siodełko, wyścig, dzwonek, hamulce, szprychy
Tent: biwak, śpiwór, wakacje, natura, płótno, las, ognisko, śledzie, noc, kemping
Farm: krowa, traktor, świnia, siano, kura, koń, stodoła, pola, owca, mleko
Bee: miód, żądło, żółta, kwiaty, bzyczenie, ul, królowa, czarna, wosk, pyłek
Spider: sieć, nogi, osiem, mucha, strach, czarny, włochaty, owad, jad, tarantula
Ocean: woda, morze, fale, ryby, niebieski, wieloryb, sól, głęboki, statek, rekin
Island: morze, palma, piasek, plaża, łódka, wakacje, kokos, skarb, słońce, samotność
Mountain: śnieg, wspinaczka, szczyt, wysoko, narty, skały, wędrówka, Tatry, Alpy, dolina
Sun: gorąco, żółte, światło, lato, plaża, niebo, ciepło, gwiazda, upał, okulary
Storm: grzmot, błyskawica, deszcz, wiatr, chmury, ciemno, strach, piorun, huragan, nawałnica
Fire: gorąco, płomienie, czerwony, dym, ciepło, drewno, palenie, żar, niebezpieczeństwo, zapałki
Ice cream: zimne, wanilia, rożek, lato, czekolada, truskawka, słodkie, gałka, Włochy, deser
Cheese: mysz, mleko, żółty, dziury, Francja, krowa, zapach, pizza, koza, kanapka
Bread: piekarz, mąka, masło, tost, śniadanie, kanapka, okruchy, piec, bagietka, bochenek
Apple: czerwone, owoc, drzewo, zielone, szarlotka, Newton, robak, sok, sad, Adam
Banana: żółty, małpa, owoc, skórka, potas, kiść, tropikalny, dojrzały, koktajl, słodki
Egg: kura, śniadanie, żółtko, białko, skorupka, omlet, Wielkanoc, gotowane, sadzone, gniazdo
Tea: filiżanka, gorąca, Anglia, mleko, liście, zielona, cukier, czajniczek, cytryna, ziołowa
Wine: czerwone, grona, białe, butelka, kieliszek, Francja, Włochy, pijany, korek, alkohol
Cake: urodziny, świeczki, słodkie, czekolada, krem, piekarnik, cukier, kawałek, impreza, mąka
Clown: cyrk, czerwony nos, śmiech, zabawny, makijaż, buty, balon, peruka, dzieci, żonglowanie
King: korona, władca, tron, zamek, pałac, władza, książę, berło, złoto, rycerz
Princess: korona, Kopciuszek, zamek, suknia, bajka, różowy, żaba, piękna, tiara, król
Witch: miotła, kapelusz, magia, kot, Halloween, zaklęcie, czarny, kocioł, eliksir, różdżka
Ghost: biały, prześcieradło, straszny, nawiedzony, zamek, noc, bu, zjawa, Halloween, łańcuchy
Vampire: krew, kły, nietoperz, noc, Drakula, trumna, czosnek, peleryna, ugryzienie, zamek
Knight: zbroja, miecz, koń, zamek, tarcza, król, hełm, księżniczka, smok, turniej
Cowboy: koń, kapelusz, rewolwer, Teksas, lasso, buty, saloon, pustynia, bydło, szeryf
Astronaut: kosmos, rakieta, księżyc, gwiazdy, hełm, skafander, grawitacja, NASA, planeta, orbita
Doctor: szpital, pielęgniarka, stetoskop, recepta, chory, biały fartuch, pacjent, zdrowie,
    tabletki, gorączka
Police: samochód, syrena, złodziej, więzienie, mundur, kajdanki, prawo, niebieski, detektyw,
    przestępstwo
Firefighter: płomienie, wóz, wąż, woda, drabina, hełm, czerwony, ratunek, syrena, dym
Teacher: szkoła, uczniowie, lekcja, tablica, zadanie domowe, kreda, klasa, egzamin, oceny, wiedza
Cinema: film, popcorn, ekran, aktor, bilet, fotele, ciemno, gwiazda, Hollywood, zwiastun
Museum: sztuka, obrazy, historia, posągi, stary, bilety, wystawa, przewodnik, starożytny, cisza
Market: owoce, warzywa, stragany, zakupy, pieniądze, ryby, świeże, tłum, okazja, kwiaty
Bank: pieniądze, konto, karta, gotówka, sejf, kredyt, oszczędności, odsetki, czek, napad
Garden: kwiaty, trawa, drzewa, warzywa, róże, łopata, konewka, trawnik, ptaki, żywopłot
Bathroom: prysznic, ręcznik, szczoteczka, mydło, bąbelki, lustro, toaleta, woda, wanna, kafelki
Bed: sen, poduszka, koc, noc, prześcieradło, marzenia, materac, odpoczynek, zmęczenie, kołdra
Window: szyba, światło, firanki, widok, otwarte, rama, słońce, dom, szkło, okiennice
Door: klucz, klamka, otwarte, zamek, dom, drewno, pukanie, dzwonek, wejście, zamknięte
Key: drzwi, zamek, otwieranie, samochód, dom, metal, breloczek, sekret, sejf, kieszeń
Clock: czas, godziny, minuty, budzik, wskazówki, tykanie, ściana, sekundy, spóźnienie, punktualność
Mirror: odbicie, szkło, twarz, uroda, łazienka, obraz, makijaż, próżność, pęknięte, Królewna Śnieżka
Umbrella: deszcz, mokro, otwarty, czarny, pogoda, wiatr, burza, rączka, szary, ochrona
Glasses: oczy, widzieć, soczewki, czytanie, oprawki, optyk, wzrok, słońce, krótkowzroczność, szkła
Hat: głowa, czapka, słońce, kowboj, magik, królik, wełna, moda, słomkowy, ślub
Shoe: stopa, sznurówki, chodzenie, skóra, obcas, skarpetka, sklep, para, podeszwa, adidasy
Telephone: rozmowa, dzwonek, numer, komórka, głos, wiadomość, halo, linia, bateria, słuchawka
Computer: ekran, klawiatura, mysz, internet, gry, praca, program, poczta, laptop, myszka
Television: ekran, pilot, wiadomości, film, kanał, kanapa, serial, reklamy, oglądanie, bajka
Camera: zdjęcie, fotografia, lampa błyskowa, obiektyw, wakacje, wspomnienia, selfie, zoom, film,
    turysta
Book: czytanie, strony, historia, rozdział, autor, słowa, powieść, okładka, papier, pisarz
Newspaper: polityka, druk, dziennikarz, nagłówki, czytanie, poranek, artykuły, prasa, krzyżówka,
    wiadomości
Envelope: list, znaczek, poczta, adres, papier, biała, listonosz, kartka, pieczątka, klej
Car: koła, jazda, droga, silnik, benzyna, prędkość, garaż, prawo jazdy, korek, klakson
Boat: woda, morze, żagiel, rybak, rzeka, kapitan, port, wiosła, fale, kotwica
Plane: niebo, latanie, lotnisko, pilot, skrzydła, podróż, wakacje, chmury, bilet, pasażerowie
Rocket: kosmos, księżyc, start, astronauta, ogień, szybko, gwiazdy, NASA, odliczanie, paliwo
Submarine: morze, głębia, żółta, peryskop, woda, marynarka, ocean, ryby, torpeda, zanurzenie
Balloon: impreza, powietrze, czerwony, urodziny, pęknięcie, hel, kolory, sznurek, dzieci, lekki
Kite: wiatr, niebo, sznurek, latanie, ogon, plaża, kolory, dzieci, papier, wysoko
Skateboard: kółka, triki, rampa, kask, skatepark, upadek, prędkość, ulica, młodzież, jazda
Horse: jazda, siodło, galop, grzywa, siano, farma, wyścig, kucyk, kowboj, stajnia
Cow: mleko, farma, trawa, muu, łaciata, ser, byk, pole, cielę, wołowina
Lion: król, grzywa, Afryka, ryk, dżungla, sawanna, kot, żółty, zoo, stado
Monkey: banan, drzewo, dżungla, zoo, ogon, wspinaczka, zabawna, szympans, goryl, psotna
Penguin: lód, czarno-biały, zimno, ryby, śnieg, biegun, Antarktyda, kaczy chód, ptak, pływanie
Shark: zęby, morze, niebezpieczeństwo, płetwa, ryba, szczęki, ocean, ugryzienie, strach, szary
Snake: jad, syczenie, skóra, długi, dżungla, ugryzienie, kobra, strach, łuski, trucizna
Owl: noc, mądra, oczy, ptak, pióra, pohukiwanie, drzewo, mądrość, Harry Potter, las
Frog: zielona, skok, staw, książę, ropucha, woda, rechot, kijanka, nogi, lilia wodna
Butterfly: skrzydła, kolory, kwiaty, gąsienica, latanie, wiosna, piękny, owad, lekki, ogród
Mouse: ser, kot, mała, szara, ogon, pułapka, pisk, komputer, dziura, szczur
Rabbit: marchewka, uszy, skok, biały, Wielkanoc, nora, futro, zwierzątko, magik, kica
Tree: liście, drewno, zielone, las, korzenie, gałęzie, cień, kora, natura, dąb
Flower: róża, ogród, wiosna, płatki, zapach, kolory, pszczoła, bukiet, czerwony, tulipan
Rainbow: kolory, niebo, słońce, czerwony, chmury, łuk, światło, siedem, piękna, deszcz
Star: niebo, noc, jasna, księżyc, świecenie, słońce, planeta, życzenie, migotanie, kosmos
Music: piosenka, nuty, gitara, pianino, koncert, taniec, radio, piosenkarz, melodia, rytm
Dance: muzyka, impreza, balet, rytm, kroki, dyskoteka, salsa, para, buty, walc
Holiday: słońce, plaża, podróż, odpoczynek, hotel, lato, walizka, morze, samolot, relaks
Money: monety, bank, gotówka, bogaty, euro, dolar, portfel, banknoty, złoto, praca
Gold: pieniądze, żółty, biżuteria, skarb, bogaty, pierścionek, metal, cenny, medal, błyszczący
Treasure: złoto, pirat, mapa, skrzynia, wyspa, klejnoty, monety, ukryty, bogactwo, diamenty
Map: podróż, drogi, kraj, świat, kompas, skarb, papier, kierunki, zgubiony, atlas
Party: muzyka, przyjaciele, taniec, napoje, zabawa, urodziny, tort, noc, balony, goście
Night: ciemno, księżyc, gwiazdy, sen, czarny, marzenia, sowa, łóżko, cisza, piżama
Autumn: liście, deszcz, pomarańczowy, brązowy, wiatr, grzyby, wrzesień, szkoła, zimno, kasztany
Summer: słońce, wakacje, plaża, gorąco, pływanie, lody, morze, lipiec, sierpień, okulary
Swimming pool: woda, tory, lato, niebieski, nurkowanie, ręcznik, chlor, ratownik, plusk, czepek
Zoo: zwierzęta, lew, słoń, małpa, klatki, żyrafa, wizyta, dzieci, opiekun, tygrys
Restaurant: jedzenie, kelner, menu, kucharz, stolik, kolacja, rachunek, kuchnia, wino, napiwek
Baby: butelka, pieluszka, płacz, mleko, słodkie, wózek, małe, mama, sen, grzechotka
Grandmother: wnuki, stara, ciasto, robótki, miłość, rodzina, okulary, gotowanie, opowieści, dobra
Soup: gorąca, łyżka, warzywa, talerz, pomidorowa, obiad, rosół, chleb, ciepła, cebula
Honey: pszczoła, słodki, żółty, miś, ul, herbata, lepki, słoik, złoty, kwiaty
Lemon: żółta, kwaśna, sok, owoc, herbata, wyciskanie, cytrus, witamina, lemoniada, skórka
Strawberry: czerwona, owoc, śmietana, lato, dżem, słodka, ciasto, pestki, zbieranie, deser
Carrot: pomarańczowa, królik, warzywo, bałwan, oczy, zupa, chrupiąca, ogród, korzeń, sok
Hedgehog: kolce, kłujący, mały, noc, kulka, jesień, ogród, jabłko, droga, liście
Snail: powolny, skorupa, śluz, ogród, deszcz, Francja, sałata, czułki, spirala, muszla
Squirrel: orzechy, drzewo, ogon, żołędzie, rudy, las, skakanie, zima, laskowe, park
"""

_ES = """
Beach: arena, mar, sol, olas, bañador, toalla, vacaciones, conchas, verano, sombrilla
Winter: nieve, frío, hielo, Navidad, bufanda, esquí, guantes, abrigo, helada, chimenea
Birthday: tarta, regalos, velas, fiesta, globos, amigos, canción, deseos, edad, tarjeta
Hospital: médico, enfermera, ambulancia, cama, enfermo, inyección, operación, medicina, blanco,
    dolor
Elephant: trompa, gris, grande, África, orejas, marfil, pesado, colmillos, memoria, circo
Pirate: barco, tesoro, loro, parche, espada, bandera, isla, ron, capitán, garfio
Kitchen: fogón, horno, nevera, cuchillo, comida, mesa, fregadero, sartén, receta, chef
Football: gol, portería, equipo, estadio, árbitro, partido, césped, afición, penalti, camiseta
Volcano: lava, erupción, fuego, montaña, calor, ceniza, cráter, magma, humo, peligro
Wedding: novia, anillo, vestido, iglesia, novio, amor, tarta, blanco, fiesta, flores
Library: libros, silencio, lectura, estanterías, tranquilo, estudio, estudiantes, carné,
    préstamo, mesa
Rain: paraguas, mojado, agua, nubes, charco, gotas, gris, botas, tormenta, otoño
Pizza: queso, Italia, tomate, horno, porción, jamón, masa, champiñones, reparto, redonda
Castle: rey, torre, caballero, princesa, murallas, puente levadizo, foso, piedra, reina, dragón
Dentist: dientes, dolor, taladro, sillón, cepillo, boca, miedo, blanco, caries, empaste
Circus: payaso, carpa, acróbata, león, malabarista, trapecio, pista, elefante, espectáculo, mago
Snowman: zanahoria, invierno, frío, sombrero, bufanda, botones, hielo, blanco, carbón, escoba
Train: vía, estación, billete, vagón, viaje, locomotora, revisor, rápido, vapor, andén
Moon: noche, estrellas, astronauta, cielo, llena, creciente, blanca, espacio, lobo, cráteres
Coffee: taza, mañana, negro, leche, azúcar, expreso, caliente, amargo, granos, despertar
Dog: hueso, ladrido, cola, paseo, cachorro, amigo, correa, pelo, caseta, patas
Cat: ratón, leche, ronroneo, bigotes, uñas, cachorro, pelo, miau, cola, patas
Forest: árboles, madera, verde, setas, hojas, animales, lobo, ciervo, sendero, musgo
Desert: arena, camello, calor, sol, seco, dunas, cactus, sed, oasis, Sáhara
School: profesor, alumnos, deberes, clase, lápiz, lección, pizarra, examen, libros, recreo
Airport: avión, maleta, pasaporte, vuelo, billete, vacaciones, pista, piloto, puerta, control
Chocolate: dulce, marrón, cacao, leche, tableta, Pascua, azúcar, negro, bombones, caliente
Christmas: árbol, regalos, Papá Noel, nieve, diciembre, Reyes Magos, estrella, familia, reno,
    villancicos
Dragon: fuego, alas, escamas, castillo, caballero, princesa, llamas, monstruo, cueva, leyenda
Robot: metal, máquina, ordenador, futuro, artificial, batería, androide, ciencia, acero, programa
Guitar: música, cuerdas, rock, canción, concierto, acordes, madera, grupo, acústica, eléctrica
Bicycle: ruedas, pedales, paseo, casco, cadena, sillín, carrera, timbre, frenos, ciclista
Tent: acampada, saco de dormir, vacaciones, naturaleza, lona, bosque, hoguera, estacas, noche,
    montaña
Farm: vaca, tractor, cerdo, heno, gallina, caballo, establo, campos, oveja, leche
Bee: miel, picadura, amarilla, flores, zumbido, colmena, reina, negra, cera, polen
Spider: hilo, patas, ocho, mosca, miedo, negra, peluda, insecto, veneno, tarántula
Ocean: agua, mar, olas, peces, azul, ballena, sal, profundo, barco, tiburón
Island: mar, palmera, arena, playa, barco, vacaciones, coco, tesoro, sol, soledad
Mountain: nieve, escalada, cima, alto, esquí, rocas, senderismo, pico, Alpes, valle
Sun: calor, amarillo, luz, verano, playa, cielo, caliente, estrella, gafas, bronceado
Storm: trueno, relámpago, lluvia, viento, nubes, oscuro, miedo, rayo, huracán, apagón
Fire: calor, llamas, rojo, humo, caliente, madera, quemar, chimenea, peligro, cerillas
Ice cream: frío, vainilla, cucurucho, verano, chocolate, fresa, dulce, bola, Italia, postre
Cheese: ratón, leche, amarillo, agujeros, Francia, vaca, olor, pizza, cabra, manchego
Bread: trigo, harina, mantequilla, tostada, desayuno, bocadillo, migas, horno, barra, hogaza
Apple: roja, fruta, árbol, verde, tarta, Newton, gusano, zumo, huerto, Adán
Banana: amarillo, mono, fruta, piel, potasio, racimo, tropical, madura, batido, Canarias
Egg: gallina, desayuno, yema, clara, cáscara, tortilla, Pascua, cocido, frito, nido
Tea: taza, caliente, Inglaterra, leche, hojas, verde, azúcar, China, merienda, infusión
Wine: tinto, uvas, blanco, botella, copa, Francia, viñedo, borracho, corcho, alcohol
Cake: cumpleaños, velas, dulce, chocolate, nata, horno, azúcar, trozo, fiesta, harina
Clown: circo, nariz roja, risa, gracioso, maquillaje, zapatos, globo, peluca, niños, malabares
King: corona, reina, trono, castillo, real, palacio, poder, príncipe, cetro, oro
Princess: corona, Cenicienta, castillo, vestido, cuento, rosa, sapo, bonita, tiara, rey
Witch: escoba, sombrero, magia, gato, Halloween, hechizo, negro, caldero, poción, varita
Ghost: blanco, sábana, miedo, encantado, castillo, noche, bu, espíritu, Halloween, cadenas
Vampire: sangre, colmillos, murciélago, noche, Drácula, ataúd, ajo, capa, mordisco, castillo
Knight: armadura, espada, corcel, castillo, escudo, rey, casco, princesa, dragón, torneo
Cowboy: caballo, sombrero, pistola, Texas, lazo, botas, salón, desierto, ganado, sheriff
Astronaut: espacio, cohete, luna, estrellas, casco, traje espacial, gravedad, NASA, planeta, órbita
Doctor: hospital, enfermera, estetoscopio, receta, enfermo, bata blanca, paciente, salud,
    pastillas, fiebre
Police: coche, sirena, ladrón, cárcel, uniforme, esposas, ley, azul, detective, crimen
Firefighter: llamas, camión, manguera, agua, escalera, casco, rojo, rescate, sirena, humo
Teacher: escuela, alumnos, lección, pizarra, deberes, tiza, clase, examen, notas, conocimiento
Cinema: película, palomitas, pantalla, actor, entrada, butacas, oscuro, estrella, Hollywood, tráiler
Museum: arte, cuadros, historia, estatuas, antiguo, entradas, exposición, guía, silencio, Prado
Market: fruta, verduras, puestos, compras, dinero, pescado, fresco, gente, oferta, flores
Bank: dinero, cuenta, tarjeta, efectivo, caja fuerte, préstamo, ahorros, intereses, cheque, atraco
Garden: flores, césped, árboles, verduras, rosas, pala, regadera, pájaros, seto, manguera
Bathroom: ducha, toalla, cepillo de dientes, jabón, burbujas, espejo, váter, agua, lavabo, azulejos
Bed: dormir, almohada, manta, noche, sábanas, sueño, colchón, descanso, cansado, edredón
Window: cristal, luz, cortinas, vista, abierta, marco, sol, casa, persiana, vidrio
Door: llave, pomo, abierta, cerradura, casa, madera, timbre, entrada, cerrada, portazo
Key: puerta, cerradura, abrir, coche, casa, metal, candado, secreto, caja fuerte, bolsillo
Clock: tiempo, horas, minutos, alarma, agujas, tictac, pared, segundos, tarde, puntual
Mirror: reflejo, cristal, cara, belleza, baño, imagen, maquillaje, vanidad, roto, Blancanieves
Umbrella: lluvia, mojado, abierto, negro, tiempo, viento, tormenta, mango, gris, protección
Glasses: ojos, ver, lentes, lectura, montura, óptica, vista, sol, miope, lentillas
Hat: cabeza, gorra, sol, vaquero, mago, conejo, lana, moda, paja, boda
Shoe: pie, cordones, caminar, cuero, tacón, calcetín, tienda, par, suela, deportivas
Telephone: llamada, timbre, número, móvil, voz, hablar, mensaje, hola, línea, batería
Computer: pantalla, teclado, ratón, internet, juegos, trabajo, programa, correo, portátil,
    informática
Television: pantalla, mando, noticias, película, canal, sofá, serie, anuncios, dibujos, telediario
Camera: foto, imagen, flash, objetivo, vacaciones, recuerdos, selfi, zoom, película, turista
Book: lectura, páginas, historia, capítulo, autor, palabras, novela, portada, papel, escritor
Newspaper: política, tinta, periodista, titulares, lectura, mañana, artículos, prensa,
    crucigrama, noticias
Envelope: carta, sello, correo, dirección, papel, blanco, cartero, tarjeta, buzón, pegamento
Car: ruedas, conducir, carretera, motor, gasolina, velocidad, garaje, carné, atasco, claxon
Boat: agua, mar, vela, pesca, río, capitán, puerto, remos, olas, ancla
Plane: cielo, volar, aeropuerto, piloto, alas, viaje, vacaciones, nubes, billete, pasajeros
Rocket: espacio, luna, lanzamiento, astronauta, fuego, rápido, estrellas, NASA, cuenta atrás,
    combustible
Submarine: mar, profundidad, amarillo, periscopio, agua, marina, océano, peces, torpedo, sumergido
Balloon: fiesta, aire, rojo, cumpleaños, explotar, helio, colores, flotar, cuerda, niños
Kite: viento, cielo, cuerda, volar, cola, playa, colores, niños, papel, alto
Skateboard: ruedas, trucos, rampa, casco, parque, caída, velocidad, calle, jóvenes, patinar
Horse: montar, silla, galope, crin, heno, granja, carrera, poni, vaquero, cuadra
Cow: leche, granja, hierba, mu, manchas, queso, toro, campo, ternero, carne
Lion: rey, melena, África, rugido, selva, sabana, gato, amarillo, zoo, manada
Monkey: plátano, árbol, selva, zoo, cola, trepar, gracioso, chimpancé, gorila, travieso
Penguin: hielo, blanco y negro, frío, peces, nieve, polo sur, Antártida, andar, ave, nadar
Shark: dientes, mar, peligro, aleta, pez, mandíbula, océano, mordisco, miedo, gris
Snake: veneno, silbido, piel, larga, selva, mordedura, cobra, miedo, escamas, reptil
Owl: noche, sabia, ojos, ave, plumas, ulular, árbol, sabiduría, Harry Potter, bosque
Frog: verde, saltar, charca, príncipe, sapo, agua, croar, renacuajo, patas, nenúfar
Butterfly: alas, colores, flores, oruga, volar, primavera, bonita, insecto, ligera, jardín
Mouse: queso, gato, pequeño, gris, cola, trampa, chillido, ordenador, agujero, rata
Rabbit: zanahoria, orejas, saltar, blanco, Pascua, madriguera, pelo, mascota, mago, liebre
Tree: hojas, madera, verde, bosque, raíces, ramas, sombra, corteza, naturaleza, roble
Flower: rosa, jardín, primavera, pétalos, olor, colores, abeja, ramo, rojo, tulipán
Rainbow: colores, cielo, sol, rojo, nubes, prisma, luz, siete, bonito, lluvia
Star: cielo, noche, brillante, luna, brillar, sol, planeta, deseo, centelleo, espacio
Music: canción, notas, guitarra, piano, concierto, baile, radio, cantante, melodía, ritmo
Dance: música, fiesta, ballet, ritmo, pasos, discoteca, salsa, pareja, zapatos, vals
Holiday: sol, playa, viaje, descanso, hotel, verano, maleta, mar, avión, relax
Money: monedas, banco, efectivo, rico, euro, dólar, cartera, billetes, oro, trabajo
Gold: dinero, amarillo, joyas, tesoro, rico, anillo, metal, precioso, medalla, brillante
Treasure: oro, pirata, mapa, cofre, isla, joyas, monedas, escondido, rico, diamantes
Map: viaje, carreteras, país, mundo, brújula, tesoro, papel, direcciones, perdido, atlas
Party: música, amigos, baile, bebidas, diversión, cumpleaños, tarta, noche, globos, invitados
Night: oscuro, luna, estrellas, dormir, negro, sueño, búho, cama, silencio, pijama
Autumn: hojas, lluvia, naranja, marrón, viento, setas, septiembre, colegio, frío, castañas
Summer: sol, vacaciones, playa, calor, nadar, helado, mar, julio, agosto, gafas de sol
Swimming pool: agua, calles, verano, azul, bañador, toalla, cloro, socorrista, salpicar, flotador
Zoo: animales, león, elefante, mono, jaulas, jirafa, visita, niños, cuidador, tigre
Restaurant: comida, camarero, menú, cocinero, mesa, cena, cuenta, cocina, vino, propina
Baby: biberón, pañal, llanto, leche, mono, carrito, pequeño, madre, dormir, sonajero
Grandmother: nietos, mayor, pastel, punto, cariño, familia, gafas, cocinar, cuentos, buena
Soup: caliente, cuchara, verduras, plato, tomate, invierno, pollo, pan, caldo, cebolla
Honey: abeja, dulce, amarilla, oso, colmena, té, pegajosa, tarro, oro, flores
Lemon: amarillo, ácido, zumo, fruta, té, exprimir, cítrico, vitamina, agrio, cáscara
Strawberry: roja, fruta, nata, verano, mermelada, dulce, tarta, semillas, recoger, postre
Carrot: naranja, conejo, verdura, muñeco de nieve, ojos, sopa, crujiente, huerto, raíz, zumo
Hedgehog: púas, pincha, pequeño, noche, bola, otoño, jardín, manzana, carretera, hojas
Snail: lento, concha, baba, jardín, lluvia, Francia, lechuga, cuernos, babosa, espiral
Squirrel: nueces, árbol, cola, bellotas, roja, bosque, saltar, invierno, avellanas, parque
"""


def _parse(text: str) -> dict[str, tuple[str, ...]]:
    """``Subject: word, word, ...`` a line (a line that begins with spaces goes on the one
    before it)."""
    out: dict[str, tuple[str, ...]] = {}
    joined = text.strip().replace("\n    ", " ")
    for line in joined.splitlines():
        subject, _, words = line.partition(":")
        out[subject] = tuple(w.strip() for w in words.split(","))
    return out


BY_LANGUAGE: Final[dict[str, dict[str, tuple[str, ...]]]] = {
    "en": _parse(_EN),
    "pl": _parse(_PL),
    "es": _parse(_ES),
}
"""Words each subject brings to mind, by writing language, then by the subject's English
name."""

ASSOCIATIONS: Final = BY_LANGUAGE["en"]
"""English words each subject brings to mind, by the subject's English name."""


def ideas(card: int, lang: str) -> tuple[str, ...]:
    """The words subject card ``card`` brings to mind in writing language ``lang`` (one of
    :data:`~.subjects.LANGUAGES`), the most common first."""
    assert lang in LANGUAGES
    return BY_LANGUAGE[lang].get(SUBJECTS[card][0], ())
