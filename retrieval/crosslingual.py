"""A bilingual concept lexicon: the words of everyday life in English and in the other
languages people text in (Vietnamese, Indonesian, Spanish, Portuguese, Italian, French,
German), so a question asked in English finds a message written in another language.

The history holds a user's own chats, and families, friends and colleagues often write in
their own language: "did I get the mooncakes?" is answered by "con mua 2 hộp bánh trung
thu rồi", "did Sari like the cake?" by "kuenya enak banget". The embedder is English-only and
the stored text search vector uses the English configuration, so neither leg of search
connects the two. Each concept here lists its English forms and, per language, the forms a
message uses; search looks for a question word's foreign forms too, as a separate term
weighted below the word itself (``retrieval.lexical``), and the answerability check counts a
word whose foreign form the history uses as a known topic.

Rules, each to keep the expansion from finding what the question does not ask:

- A foreign form that is an English word as well (French "chat", Spanish "pan", Vietnamese
  "mẹ" typed without its marks as "me"), or that the English stemmer of the stored vector
  reduces to an English word's stem (German "Familie" / "family", Portuguese "filme" /
  "film", French "partie" / "party"), is never searched on its own: it would match English
  messages, about something else or already found by the question's own word. The English words are the embedder vocabulary's most common
  ``ENGLISH_WORD_COUNT`` whole words; a form that the concept's own English side lists is kept
  (it means the same thing in both languages).
- Accents are optional in texting ("cafe", "mama", "banh trung thu"): every form is searched
  as written and folded (``retrieval.lexicon.fold_text``), except a Vietnamese word of one
  syllable, whose folded spelling stands for several words ("nhà" house, "nha" the particle,
  "nhá"): it is searched with its tone marks only. Phrases of two or more syllables fold.
- A long question word that is no English word is also read with one letter doubled or
  undoubled, the commonest misspelling of a long word ("recomend", "apointment").
- A multi-word English concept ("spring rolls", "ice cream") is matched on consecutive
  keywords and then its words are not looked up on their own ("spring" is not the season).
- The verb "like" is a stop word, so "did Ana like the soup?" has no keyword for it; a
  question that asks whether someone liked, enjoyed or loved something
  (``asks_about_liking``) adds the concepts of liking and of tasting good ("thích", "ngon",
  "enak", "gostoso", "lecker" ...).

Data plus pure functions; the search and the check that use them live in
``retrieval.lexical``, ``retrieval.search`` and ``retrieval.answerability``.
"""

# ruff: noqa: E501  (the lexicon is a table: one concept a line)
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

from claire.ai.local.embedder import common_words
from retrieval.lexicon import fold_text
from retrieval.shorthand import search_forms

LANGUAGES: tuple[str, ...] = ("vi", "id", "es", "pt", "it", "fr", "de")

# A foreign form that is one of this many most common English words is not searched.
ENGLISH_WORD_COUNT = 10000

# One concept a line: English forms | vi | id | es | pt | it | fr | de. Forms are separated by
# commas; "-" is none. English forms are the words a question uses (inflections listed); the
# foreign forms are what a message writes (the English stemmer of the stored vector also
# reduces most plurals on both sides).
_TABLE = """
# family and people
mother, mom, mum, mommy, mummy, mama | mẹ, má, mẹ ơi | ibu, mama, mamah, bunda | madre, mamá | mãe, mamãe | madre, mamma | mère, maman | mutter, mama
father, dad, daddy, papa | bố, cha, ba ơi, bố ơi | ayah, bapak, papa | padre, papá | pai, papai | padre, papà, babbo | père, papa | vater, papa
parents | bố mẹ, ba mẹ, cha mẹ | orang tua, ortu | padres | pais | genitori | - | eltern
sister, sisters | chị gái, em gái | kakak perempuan, adik perempuan | hermana, hermanas | irmã, irmãs | sorella, sorelle | sœur, sœurs, frangine | schwester
brother, brothers | anh trai, em trai | kakak laki-laki, adik laki-laki | hermano, hermanos | irmão, irmãos | fratello, fratelli | frère, frères, frangin | bruder, brüder
grandmother, grandma, granny, nana | bà nội, bà ngoại | nenek, oma | abuela, abuelita | avó, vovó | nonna | grand-mère, mamie | oma, großmutter
grandfather, grandpa, granddad | ông nội, ông ngoại | kakek, opa | abuelo, abuelito | avô, vovô | nonno | grand-père, papi | opa, großvater
grandparents | ông bà | kakek nenek | abuelos | avós | nonni | grands-parents | großeltern
aunt, auntie | dì, bác gái, cô ruột | tante, bibi | tía, tita | tia | zia | tante, tata | tante
uncle | chú, cậu, bác trai | om, paman | tío, tito | tio | zio | oncle, tonton | onkel
cousin, cousins | anh họ, chị họ, em họ | sepupu | primo, prima, primos | primo, prima, primos | cugino, cugina, cugini | cousin, cousine | cousin, cousine
son | con trai | anak laki-laki | hijo | filho | figlio | fils | sohn
daughter | con gái | anak perempuan | hija | filha | figlia | fille | tochter
child, children, kid, kids | con cái, tụi nhỏ, bọn trẻ, mấy đứa nhỏ | anak-anak, anak | niño, niños, niña, hijos | criança, crianças, filhos | bambino, bambini, figli | enfant, enfants, gosses | kind, kinder
baby | em bé | bayi, dedek | bebé, bebe | bebê, nenê | bebè, neonato | bébé | baby
grandchild, grandson, granddaughter, grandchildren | cháu nội, cháu ngoại | cucu | nieto, nieta, nietos | neto, neta, netos | nipote, nipoti | petit-fils, petite-fille, petits-enfants | enkel, enkelin
wife | vợ | istri, bini | esposa, mujer | esposa, mulher | moglie | femme, épouse | frau, ehefrau
husband | chồng | suami | esposo, marido | marido | marito | mari | mann, ehemann
family | gia đình, cả nhà | keluarga | familia | família | famiglia | famille | familie
relatives | họ hàng | saudara, kerabat | parientes, familiares | parentes | parenti | proches | verwandte
friend, friends | bạn bè, bạn thân | teman, kawan, sahabat | amigo, amiga, amigos | amigo, amiga, amigos | amico, amica, amici | ami, amie, amis, copain, copine | freund, freundin, freunde
boyfriend | bạn trai, người yêu | pacar, cowok | novio | namorado | fidanzato, ragazzo | petit ami, copain, mec | freund
girlfriend | bạn gái, người yêu | pacar, cewek | novia | namorada | fidanzata, ragazza | petite amie, copine, meuf | freundin
neighbour, neighbor, neighbours, neighbors | hàng xóm | tetangga | vecino, vecina, vecinos | vizinho, vizinha, vizinhos | vicino, vicina, vicini | voisin, voisine, voisins | nachbar, nachbarin
colleague, colleagues, coworker, coworkers | đồng nghiệp | rekan kerja, teman kantor | compañero de trabajo, compañera de trabajo, colega | colega | collega, colleghi | collègue | kollege, kollegin, kollegen
boss | sếp | bos, atasan | jefe, jefa | chefe | capo | patron | chefin, vorgesetzter
teacher | thầy giáo, cô giáo, giáo viên | guru, bu guru, pak guru | profesora, maestro, maestra | professora | insegnante, maestra, professore, professoressa | professeur, prof, maîtresse | lehrer, lehrerin
doctor | bác sĩ | dokter | médico, médica | médico | medico, dottore, dottoressa | médecin, docteur | arzt, ärztin
dentist | nha sĩ, nha khoa | dokter gigi | dentista | dentista | dentista | dentiste | zahnarzt, zahnärztin
nurse | y tá | perawat, suster | enfermera, enfermero | enfermeira, enfermeiro | infermiera, infermiere | infirmière, infirmier | krankenschwester, pfleger
guest, guests | khách | tamu | invitados | convidados | ospiti | invités | gäste
# food and drink
food | đồ ăn, món ăn, thức ăn | makanan | comida | comida | cibo | nourriture, bouffe | essen
eat, ate, eaten, eating | ăn, ăn uống | makan | comer, comí, comimos, comió | comer, comi, comemos | mangiare, mangiato, mangiamo | manger, mangé | essen, gegessen
drink, drank, drinking | uống | minum | beber, tomar | beber | bere | boire | trinken, getrunken
cook, cooked, cooking | nấu, nấu ăn | masak, memasak | cocinar, cociné, cocinó | cozinhar, cozinhei | cucinare, cucinato | cuisiner, cuisiné | kochen, gekocht
bake, baked, baking | nướng bánh | memanggang, bikin kue | hornear, horneé | assar, assei | infornare | cuire au four | backen, gebacken
meal | bữa ăn, bữa cơm | makan | comida | refeição | pasto | repas | mahlzeit
breakfast | bữa sáng, ăn sáng | sarapan | desayuno, desayunar | café da manhã, pequeno-almoço | colazione | petit-déjeuner, petit déj | frühstück
lunch | bữa trưa, ăn trưa | makan siang | almuerzo, comida | almoço | pranzo | déjeuner | mittagessen
dinner | bữa tối, ăn tối, cơm tối | makan malam | cena | jantar | cena | dîner | abendessen
restaurant, restaurants | nhà hàng, quán ăn | restoran, rumah makan, warung | restaurante | restaurante | ristorante, trattoria, osteria | resto | lokal, gaststätte
rice | cơm, gạo | nasi, beras | arroz | arroz | riso | riz | reis
fried rice | cơm chiên, cơm rang | nasi goreng | arroz frito | arroz frito | riso fritto | riz frit, riz cantonais | gebratener reis
noodles, noodle | bún, phở, miến, mì | mie, bakmi, bihun | fideos | macarrão, miojo | noodles | nouilles | nudeln
pho | phở | - | - | - | - | - | -
bread | bánh mì | roti | pan | pão | pane | pain, baguette | brot, brötchen
soup | canh, súp, cháo | sup, soto | sopa, caldo | sopa, caldo | zuppa, brodo, minestra | soupe | suppe
hotpot, hot pot | lẩu | shabu-shabu, steamboat | olla caliente | fondue chinês | hot pot | fondue chinoise | feuertopf
spring roll, spring rolls | chả giò, nem rán, gỏi cuốn, nem cuốn | lumpia, lumpia goreng | rollitos de primavera, rollito de primavera | rolinho primavera, rolinhos primavera | involtini primavera, involtino primavera | rouleaux de printemps, rouleau de printemps, nems | frühlingsrollen, frühlingsrolle
mooncake, mooncakes, moon cake, moon cakes | bánh trung thu, bánh nướng, bánh dẻo, bánh thập cẩm | kue bulan | pastel de luna, pasteles de luna | bolo lunar, bolos lunares | torta della luna, dolci della luna | gâteau de lune, gâteaux de lune | mondkuchen
dumpling, dumplings | bánh bao, sủi cảo, há cảo, hoành thánh | pangsit, bakpao, dimsum | empanadillas | pastéis, guioza | ravioli cinesi | raviolis | teigtaschen, knödel
sticky rice | xôi, bánh chưng, bánh tét | ketan, lemper | arroz glutinoso | arroz glutinoso | riso glutinoso | riz gluant | klebreis
cake, cakes | bánh ngọt, bánh kem, bánh gato | kue, bolu, kue tart | pastel, tarta, torta, bizcocho | bolo | torta, dolce | gâteau, gâteaux | kuchen, torte
cookies, biscuits | bánh quy | kue kering, biskuit | galletas | biscoitos, bolachas | biscotti | biscuits, gâteaux secs | kekse, plätzchen
snack, snacks | đồ ăn vặt, ăn vặt | camilan, jajan, jajanan, cemilan | botana, picoteo, aperitivo | lanche, petisco | spuntino, merenda | goûter, en-cas | snack, imbiss
fruit, fruits | trái cây, hoa quả | buah, buah-buahan | fruta, frutas | fruta, frutas | frutta | fruits | obst
mango | xoài | mangga | - | manga | - | mangue | -
durian | sầu riêng | - | - | - | - | - | -
coffee | cà phê, cafe | kopi | café, cafecito | café, cafezinho | caffè, caffe | café, kawa | kaffee
tea | trà, chè | teh | té | chá | tè | thé | tee
milk tea, bubble tea | trà sữa | teh susu, boba | té con leche | chá com leite | tè al latte | thé au lait | milchtee
milk | sữa | susu | leche | leite | latte | lait | milch
beer | bia | bir | cerveza, cerve, chela | cerveja, cerva | birra | bière | bier
wine | rượu vang, rượu | anggur | vino | vinho | vino | vin, pinard | wein
meat | thịt | daging | carne | carne | carne | viande | fleisch
chicken | gà, thịt gà | ayam | pollo | frango | pollo | poulet | hähnchen, huhn, hühnchen
pork | thịt heo, thịt lợn | babi, daging babi | cerdo, puerco | porco | maiale | porc | schweinefleisch
beef | thịt bò | sapi, daging sapi | ternera, carne de res | carne de vaca | manzo | bœuf, boeuf | rindfleisch
fish | cá | ikan | pescado | peixe | pesce | poisson | fisch
seafood | hải sản | makanan laut | mariscos | frutos do mar, marisco | frutti di mare | fruits de mer | meeresfrüchte
shrimp, prawns, prawn | tôm | udang | gambas, camarones | camarão, camarões | gamberi, gamberetti | crevettes | garnelen
egg, eggs | trứng | telur | huevo, huevos | ovo, ovos | uovo, uova | œuf, œufs | ei, eier
vegetables, veggies | rau, rau củ | sayur, sayuran | verduras | legumes, verduras | verdure | légumes | gemüse
cheese | phô mai | keju | queso | queijo | formaggio | fromage | käse
dessert, desserts | tráng miệng, chè | pencuci mulut, dessert | postre | sobremesa | dolce, dessert | dessert | nachtisch, nachspeise
chocolate | sô cô la, socola | cokelat, coklat | chocolate | chocolate | cioccolato, cioccolata | chocolat | schokolade
sweets, candy | kẹo | permen | dulces, caramelos, golosinas | doces, balas | caramelle, dolciumi | bonbons | süßigkeiten
ice cream | kem | es krim | helado | sorvete, gelado | gelato | glace | eis
groceries | đồ ăn, đi chợ | belanjaan, belanja bulanan | compra, mandado | compras, rancho | spesa | courses | einkäufe, einkauf
recipe, recipes | công thức | resep | receta | receita | ricetta | recette | rezept
delicious, tasty, yummy | ngon, ngon lắm | enak, lezat, mantap | rico, delicioso, deliciosa, sabroso | delicioso, deliciosa, gostoso, gostosa | buono, buonissimo, delizioso, squisito | délicieux, délicieuse, trop bon | lecker, köstlich
# feelings and likes
like, liked, enjoy, enjoyed, love, loved, likes, loves, enjoys | thích, mê, ngon | suka, senang, enak, doyan | gustar, gusta, gustó, encanta, encantó, rico | gostar, gostei, gostou, adorei, adorou, gostoso | piace, piaciuto, piaciuta, adoro | aimer, aimé, adoré, adore | gefallen, gefällt, gefiel, liebe
happy | vui, vui vẻ, hạnh phúc | senang, bahagia | feliz, contento | feliz, contente | felice, contento | content, heureux, heureuse | glücklich, froh
sad | buồn | sedih | triste | triste | triste | triste | traurig
angry, upset, mad | giận, bực, tức | marah, kesal, bete | enojado, enfadado, molesto | bravo, chateado, irritado | arrabbiato, arrabbiata | fâché, énervé, vénère | wütend, sauer
tired, exhausted | mệt, mệt mỏi | capek, capai, lelah | cansado, cansada, agotado | cansado, cansada, exausto | stanco, stanca | fatigué, crevé, épuisé | müde, erschöpft
worried, worry | lo lắng | khawatir, cemas | preocupado, preocupada | preocupado, preocupada | preoccupato, preoccupata | inquiet, inquiète | besorgt, sorgen
scared, afraid | sợ | takut | miedo | medo | paura | peur | angst
excited | háo hức, hào hứng | semangat, excited | emocionado, emocionada | animado, animada, empolgado | emozionato, gasato | excité, impatient | aufgeregt, gespannt
proud | tự hào | bangga | orgulloso, orgullosa | orgulhoso, orgulhosa | orgoglioso, orgogliosa | fier, fière | stolz
sorry, apologize, apologized | xin lỗi | maaf | perdón, lo siento, disculpa | desculpa, perdão | scusa, mi dispiace | désolé, pardon | entschuldigung, sorry
thank, thanks, thanked | cảm ơn, cám ơn | terima kasih, makasih, trims | gracias | obrigado, obrigada, valeu | grazie | merci | danke
congratulations, congrats | chúc mừng | selamat | felicidades, enhorabuena, felicitaciones | parabéns | congratulazioni, auguri | félicitations, bravo | glückwunsch
# health
sick, ill, illness | ốm, bệnh, bị bệnh | sakit | enfermo, enferma | doente | malato, malata | malade | krank
hospital | bệnh viện | rumah sakit | hospital | hospital | ospedale | hôpital | krankenhaus
clinic | phòng khám | klinik | clínica, consultorio | clínica, posto de saúde | clinica, ambulatorio | clinique, cabinet | praxis, klinik
appointment, appointments | lịch hẹn, lịch khám, cuộc hẹn | janji, janjian, jadwal | cita | consulta, marcação | appuntamento | rendez-vous, rdv | termin
medicine, medication, pills | thuốc | obat | medicina, medicamento, pastillas | remédio, medicamento | medicina, farmaco, pastiglie | médicament, médicaments | medikament, medikamente, tabletten
headache | đau đầu, nhức đầu | sakit kepala, pusing | dolor de cabeza | dor de cabeça | mal di testa | mal de tête, mal à la tête | kopfschmerzen
fever | sốt | demam | fiebre | febre | febbre | fièvre | fieber
flu | cảm cúm, cúm | flu, pilek | gripe | gripe | influenza | grippe | grippe
cough | bị ho, ho khan | batuk | tos | tosse | tosse | toux | husten
pain, hurts, hurt | đau | sakit, nyeri | dolor, duele | dor, dói | dolore, fa male | douleur, mal | schmerzen, tut weh
vaccine, vaccination, shot | tiêm, tiêm phòng, vắc xin | vaksin, suntik | vacuna | vacina | vaccino | vaccin | impfung
checkup, check-up | khám bệnh, khám sức khỏe | periksa, cek kesehatan, check up | revisión, chequeo | exame, check-up | controllo, visita | bilan, visite médicale | untersuchung, vorsorge
pregnant, pregnancy | có bầu, mang thai | hamil | embarazada, embarazo | grávida, gravidez | incinta, gravidanza | enceinte, grossesse | schwanger, schwangerschaft
surgery, operation | phẫu thuật, mổ | operasi | cirugía, operación | cirurgia, operação | operazione, intervento | opération, chirurgie | operation
pharmacy | nhà thuốc, hiệu thuốc | apotek | farmacia | farmácia | farmacia | pharmacie | apotheke
# festivals and occasions
mid-autumn, midautumn, moon festival, mid-autumn festival | trung thu, tết trung thu, rằm tháng tám | festival kue bulan | festival del medio otoño | festival do meio do outono | festa di metà autunno | fête de la mi-automne | mondfest
tet, lunar new year, chinese new year | tết, tết nguyên đán, ăn tết, năm mới | imlek, tahun baru imlek | año nuevo chino, año nuevo lunar | ano novo chinês, ano novo lunar | capodanno cinese, capodanno lunare | nouvel an chinois, nouvel an lunaire | chinesisches neujahr
new year, new year's | năm mới, giao thừa | tahun baru | año nuevo, nochevieja | ano novo, réveillon | capodanno | nouvel an, réveillon | neujahr, silvester
eid, lebaran | - | lebaran, idul fitri, mudik | - | - | - | aïd | -
ramadan, fasting | - | puasa, ramadan, bukber, buka puasa | ramadán | ramadã | - | ramadan, jeûne | fasten
christmas, xmas | giáng sinh, nô en, noel | natal, natalan | navidad, nochebuena | natal | natale | noël | weihnachten, heiligabend
easter | lễ phục sinh, phục sinh | paskah | pascua, semana santa | páscoa | pasqua | pâques | ostern
birthday, birthdays | sinh nhật | ulang tahun, ultah | cumpleaños, cumple | aniversário, niver | compleanno | anniversaire | geburtstag
anniversary | kỷ niệm, ngày cưới | anniversary, hari jadi | aniversario | aniversário de casamento | anniversario | anniversaire de mariage | jahrestag, hochzeitstag
wedding | đám cưới, lễ cưới, tiệc cưới | pernikahan, nikahan, kawinan, resepsi | boda | casamento | matrimonio, nozze | mariage | hochzeit
funeral | đám tang, đám ma | pemakaman, melayat, layatan | funeral, entierro, velorio | funeral, enterro, velório | funerale | enterrement, obsèques | beerdigung, trauerfeier
party, parties | tiệc, bữa tiệc, liên hoan | pesta, acara | fiesta | festa | festa | fête, soirée | feier, fete
festival | lễ hội | festival | festival, fiestas | festival, festa | festival, sagra | festival | fest
holiday, holidays, vacation | kỳ nghỉ, nghỉ lễ | liburan, libur | vacaciones, feriado, puente | férias, feriado | vacanze, ferie | vacances, férié | urlaub, ferien, feiertag
gift, gifts, present, presents | quà, món quà | hadiah, kado | regalo, regalos | presente, presentes, prenda | regalo, regali | cadeau, cadeaux | geschenk, geschenke
souvenir, souvenirs | quà lưu niệm, đặc sản | oleh-oleh | recuerdo, recuerdos | lembrança, lembrancinha | ricordo, ricordino | souvenir | andenken, mitbringsel
# travel and transport
trip, travel, travelled, traveled, traveling, travelling | chuyến đi, du lịch, đi chơi | perjalanan, jalan-jalan, liburan | viaje, viajar | viagem, viajar | viaggio, viaggiare | voyage, voyager | reise, reisen
flight, flights | chuyến bay | penerbangan, pesawat | vuelo | voo | volo | vol | flug
airport | sân bay | bandara | aeropuerto | aeroporto | aeroporto | aéroport | flughafen
plane | máy bay | pesawat | avión | avião | aereo | avion | flugzeug
train, trains | tàu hỏa, tàu lửa | kereta, kereta api, krl | tren | trem, comboio | treno | train | zug, bahn
bus | xe buýt, xe bus | bis | autobús, bus, camión | ônibus, autocarro | autobus, pullman | bus, car | bus
car | ô tô, xe hơi | mobil | coche, carro | carro | macchina, auto | voiture, bagnole | auto, wagen
motorbike, motorcycle, scooter | xe máy | motor, motor matic | moto | moto, mota | moto, motorino | moto, scooter | motorrad, roller
taxi, cab | taxi, xe ôm | taksi, ojek, gojek, grab | taxi | táxi | taxi | taxi | taxi
hotel, hotels | khách sạn | hotel, penginapan | hotel | hotel | albergo | hôtel | hotel
beach | bãi biển, biển | pantai | playa | praia | spiaggia | plage | strand
sea | biển | laut | mar | mar | mare | mer | meer
mountain, mountains | núi | gunung | montaña | montanha, serra | montagna | montagne | berg, berge
passport | hộ chiếu | paspor | pasaporte | passaporte | passaporto | passeport | reisepass
luggage, suitcase, bags | hành lý, vali | koper, bagasi | maleta, equipaje | mala, bagagem | valigia, bagagli | valise, bagages | koffer, gepäck
ticket, tickets | vé | tiket, karcis | boleto, billete | bilhete, passagem, ingresso | biglietto, biglietti | billet, billets | ticket, karte, fahrkarte
station | nhà ga, bến xe | stasiun, terminal | estación | estação, rodoviária | stazione | gare | bahnhof
traffic | kẹt xe, tắc đường | macet, macetnya | tráfico, atasco | trânsito, engarrafamento | traffico | bouchons, embouteillage | stau, verkehr
drive, drove, driving | lái xe | nyetir, menyetir | manejar, conducir | dirigir, conduzir | guidare | conduire | fahren
late, delayed, delay | trễ, muộn | telat, terlambat, delay | tarde, retraso, retrasado | atrasado, atraso | ritardo, in ritardo | retard, en retard | verspätung, verspätet, spät
directions, address | địa chỉ, chỉ đường | alamat | dirección | endereço | indirizzo | adresse | adresse
hometown | quê, quê nhà, về quê | kampung, kampung halaman, mudik | pueblo, tierra | terra natal, cidade natal | paese | village natal, bled | heimat, heimatstadt
# shopping and money
buy, bought, buying, purchase, purchased | mua, mua được | beli, membeli, dibeli, beliin | comprar, compré, compró, compramos | comprar, comprei, comprou | comprare, comprato, comprata | acheter, acheté | kaufen, gekauft
sell, sold, selling | bán | jual, menjual, dijual | vender, vendí, vendido | vender, vendi, vendido | vendere, venduto | vendre, vendu | verkaufen, verkauft
order, ordered | đặt, đặt hàng | pesan, order | pedir, pedido, encargar | pedir, pedido, encomendar | ordinare, ordinato | commander, commande | bestellen, bestellt, bestellung
shop, store, shops, stores | cửa hàng, tiệm | toko | tienda | loja | negozio | magasin, boutique | laden, geschäft
market | chợ | pasar | mercado | mercado, feira | mercato | marché | markt
supermarket | siêu thị | supermarket, swalayan | supermercado, súper | supermercado | supermercato | supermarché | supermarkt
mall | trung tâm thương mại | mal | centro comercial | shopping | centro commerciale | centre commercial | einkaufszentrum
price, cost, costs | giá | harga | precio | preço | prezzo | prix | preis
expensive, pricey | đắt, mắc | mahal | caro, costoso | caro, cara | caro, costoso | cher, chère | teuer
cheap | rẻ | murah | barato, barata | barato, barata | economico | pas cher | billig, günstig
discount, sale | giảm giá, khuyến mãi | diskon, promo | descuento, rebajas, oferta | desconto, promoção | sconto, saldi | réduction, soldes, promo | rabatt, angebot
clothes, clothing | quần áo | baju, pakaian | ropa | roupa, roupas | vestiti | vêtements, fringues | kleidung, klamotten
shoes | giày, dép | sepatu | zapatos, zapatillas | sapatos, tênis | scarpe | chaussures | schuhe
dress | váy, đầm | gaun | vestido | vestido | vestito, abito | robe | kleid
phone | điện thoại | hp, handphone, ponsel | móvil, celular, teléfono | celular, telemóvel | cellulare, telefono | portable, téléphone | handy, telefon
money, cash | tiền, tiền mặt | uang, duit, tunai | dinero, efectivo, plata | dinheiro, grana | soldi, contanti | argent, fric, liquide | geld, bargeld
pay, paid, paying, payment | trả tiền, thanh toán, chuyển tiền | bayar, membayar, dibayar | pagar, pagué, pagó | pagar, paguei, pagou | pagare, pagato | payer, payé | zahlen, bezahlt
borrow, borrowed, lend, lent, loan | mượn, vay, cho vay | pinjam, minjem, meminjam | prestar, prestado, préstamo | emprestar, emprestado, empréstimo | prestare, prestato, prestito | prêter, prêté, emprunter, emprunté | leihen, geliehen, ausleihen
debt | nợ | utang, hutang | deuda | dívida | debito | dette | schulden
salary, wage, pay rise, raise | lương, tăng lương | gaji, naik gaji | sueldo, salario, aumento | salário, aumento | stipendio, aumento | salaire, augmentation | gehalt, lohn, gehaltserhöhung
bank | ngân hàng | bank | banco | banco | banca | banque | bank
transfer | chuyển khoản | transfer | transferencia | transferência, pix | bonifico | virement | überweisung
bill, invoice | hóa đơn | tagihan, bon | factura, cuenta | conta, fatura | bolletta, fattura, conto | facture, addition | rechnung
# work and school
work, job, jobs | công việc, việc làm, đi làm | kerja, kerjaan, pekerjaan | trabajo, curro, chamba | trabalho, emprego | lavoro | travail, boulot, taf | arbeit, job
office | văn phòng, công ty | kantor | oficina | escritório | ufficio | bureau | büro
meeting, meetings | cuộc họp, họp | rapat | reunión | reunião | riunione | réunion | besprechung, sitzung
interview | phỏng vấn | wawancara, interview | entrevista | entrevista | colloquio | entretien | vorstellungsgespräch
deadline | hạn chót, hạn nộp | tenggat, deadline | fecha límite, plazo | prazo | scadenza | échéance, date limite | frist, abgabe
project | dự án | proyek | proyecto | projeto | progetto | projet | projekt
promotion, promoted | thăng chức | naik jabatan, promosi | ascenso | promoção | promozione | promotion | beförderung, befördert
quit, resign, resigned | nghỉ việc | resign, berhenti kerja | renunciar, renuncié, dimitir | pedir demissão, demissão | dimettersi, licenziarsi | démissionner, démission | kündigen, gekündigt
fired, laid off | bị đuổi việc, mất việc | dipecat, di-phk | despedido, despedida | demitido, demitida | licenziato, licenziata | viré, licencié | gefeuert, entlassen
school | trường, trường học | sekolah | colegio, escuela, cole | escola, colégio | scuola | école | schule
university, college | đại học | kampus, universitas, kuliah | universidad, facultad, facu | universidade, faculdade, facul | università | université, fac | universität, uni
exam, exams, test, tests | kỳ thi, bài thi, bài kiểm tra, thi cử | ujian, ulangan | examen, exámenes | prova, provas, exame | esame, esami, verifica | examen, partiel | prüfung, klausur
homework, assignment | bài tập, bài tập về nhà | tugas, pr | deberes, tarea | dever de casa, lição de casa, trabalho de casa | compiti | devoirs | hausaufgaben
class, classes, lesson, lessons | lớp học, buổi học | kelas, les | clase, clases | aula, aulas | lezione, lezioni | cours | unterricht, kurs
graduation, graduate, graduated | tốt nghiệp | wisuda, lulus | graduación, graduarse | formatura, formar | laurea, laurearsi | diplôme, remise des diplômes | abschluss, abschlussfeier
grades, marks, results | điểm, kết quả | nilai, rapor | notas, calificaciones | notas | voti, pagella | notes, résultats | noten, zeugnis
study, studying, studied | học, học bài, ôn thi | belajar | estudiar, estudiando | estudar, estudando | studiare | étudier, réviser | lernen, studieren
# home
house, home | nhà, về nhà | rumah | casa | casa | casa | maison, chez moi | haus, zuhause, daheim
apartment, flat | căn hộ, chung cư | apartemen, kos, kontrakan | piso, departamento, apartamento, depa | apartamento, apê | appartamento | appartement, appart | wohnung
move, moved, moving | chuyển nhà | pindah, pindahan | mudanza, mudarse, mudamos | mudança, mudar, mudamos | trasloco, traslocare | déménagement, déménager, déménagé | umzug, umziehen, umgezogen
rent | tiền nhà, thuê nhà | sewa, kontrakan | alquiler, renta | aluguel, renda | affitto | loyer | miete
kitchen | bếp, nhà bếp | dapur | cocina | cozinha | cucina | cuisine | küche
repair, repaired, fix, fixed | sửa, sửa chữa | perbaiki, benerin, servis | arreglar, reparar, arreglado | consertar, consertado, arrumar | riparare, aggiustare, riparato | réparer, réparé | reparieren, repariert
cleaning, clean | dọn dẹp, dọn nhà, lau nhà | bersih-bersih, beres-beres | limpiar, limpieza | limpar, limpeza, faxina | pulire, pulizie | ménage, nettoyer | putzen, aufräumen
laundry | giặt đồ, giặt quần áo | cucian, laundry, nyuci | lavar la ropa, lavadora | lavar roupa, máquina de lavar | bucato, lavatrice | lessive, linge | wäsche, waschmaschine
garden | vườn | kebun, taman | jardín, huerto | jardim, horta | giardino, orto | jardin, potager | garten
dog, dogs | chó, con chó | anjing | perro, perrito, perra | cachorro, cão | cane, cagnolino | chien, chienne | hund
cat, cats | mèo, con mèo | kucing | gato, gatito | gato, gatinho | gatto, gattino | chat, chaton | katze, kater
furniture | đồ nội thất | perabot, furnitur | muebles | móveis | mobili | meubles | möbel
# weather and places
rain, raining, rained | mưa, trời mưa | hujan | lluvia, llueve, llover | chuva, chovendo, chover | pioggia, piove | pluie, pleut | regen, regnet
weather | thời tiết | cuaca | tiempo, clima | tempo, clima | meteo | météo | wetter
hot, heat | nóng | panas, gerah | calor | calor, quente | caldo | chaud, chaleur | heiß, hitze
snow | tuyết | salju | nieve | neve | neve | neige | schnee
storm, typhoon | bão | badai, topan | tormenta | tempestade | tempesta | tempête, orage | sturm, unwetter
flood, flooding | lũ, lụt, ngập | banjir | inundación | enchente, inundação | alluvione | inondation | hochwasser, überschwemmung
church | nhà thờ | gereja | iglesia, misa | igreja, missa | chiesa, messa | église, messe | kirche
temple, pagoda | chùa, đền | pura, vihara, klenteng | templo | templo | tempio | temple, pagode | tempel
mosque | nhà thờ hồi giáo | masjid | mezquita | mesquita | moschea | mosquée | moschee
park | công viên | taman | parque | parque | parco | parc | park
museum | bảo tàng | museum | museo | museu | museo | musée | museum
# leisure and communication
movie, movies, film, films | phim, xem phim | film, nonton | película, peli, cine | filme, cinema | film, cinema | film, ciné | film, kino
concert | buổi hòa nhạc, đêm nhạc | konser | concierto | show, concerto | concerto | concert | konzert
music | nhạc, âm nhạc | musik, lagu | música | música | musica | musique | musik
song, songs | bài hát | lagu | canción | música, canção | canzone | chanson | lied
game, games | trò chơi, chơi game | permainan, game, main game | juego, partida | jogo | gioco, partita | jeu, partie | spiel
football, soccer, match | bóng đá, đá bóng, trận đấu | sepak bola, bola, pertandingan | fútbol, partido | futebol, jogo | calcio, partita | foot, match | fußball, spiel
gym, workout, exercise | tập gym, tập thể dục | olahraga, nge-gym, gym | gimnasio, gym, entrenar | academia, treino, ginásio | palestra, allenamento | salle de sport, muscu | fitnessstudio, training
swim, swimming | bơi, đi bơi | berenang, renang | nadar, natación | nadar, natação | nuotare, nuoto | nager, natation, piscine | schwimmen
run, running | chạy bộ | lari | correr | correr, corrida | correre, corsa | courir, course à pied | laufen, joggen
book, books | sách, quyển sách | buku | libro, libros | livro, livros | libro, libri | livre, livres, bouquin | buch, bücher
photo, photos, picture, pictures | ảnh, hình, chụp ảnh | foto | foto, fotos | foto, fotos | foto | photo, photos | foto, fotos, bild
call, called, calling | gọi điện, gọi | telepon, telpon, nelpon | llamar, llamada, llamé | ligar, ligação, liguei | chiamare, chiamata, chiamato | appeler, appel, appelé | anrufen, anruf, angerufen
visit, visited, visiting | thăm, ghé thăm, về thăm | mengunjungi, jenguk, main ke | visitar, visita | visitar, visita | visitare, trovare | visiter, rendre visite | besuchen, besuch
recommend, recommended, recommendation, recommendations, tips | gợi ý, giới thiệu, nên đi, nên thử | rekomendasi, saran, rekomen | recomendar, recomienda, recomendación, consejo, consejos | recomendar, recomendo, recomendação, dica, dicas | consigliare, consiglio, consigli | recommander, conseiller, conseil, conseils | empfehlen, empfehlung, tipp, tipps
news | tin tức, tin | berita, kabar | noticias | notícias, novidades | notizie, novità | nouvelles | neuigkeiten, nachrichten
"""

_WORD_SPLIT = re.compile(r"\s*,\s*")
_FORM = re.compile(r"^\w[\w'-]*(?: \w[\w'-]*)*$")
_VIETNAMESE = "vi"


@dataclass(frozen=True)
class Concept:
    """One concept: its English forms and, per language, the forms a message writes."""

    english: tuple[str, ...]
    foreign: dict[str, tuple[str, ...]]


def _parse(table: str) -> tuple[Concept, ...]:
    concepts: list[Concept] = []
    for raw in table.strip().splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        fields = [field.strip() for field in line.split("|")]
        if len(fields) != 1 + len(LANGUAGES):
            raise ValueError(f"concept needs {1 + len(LANGUAGES)} fields: {line!r}")
        english = tuple(form for form in _WORD_SPLIT.split(fields[0]) if form)
        foreign: dict[str, tuple[str, ...]] = {}
        for language, field in zip(LANGUAGES, fields[1:], strict=True):
            forms = () if field == "-" else tuple(f for f in _WORD_SPLIT.split(field) if f)
            for form in (*english, *forms):
                if not _FORM.match(form):
                    raise ValueError(f"not a lexicon form: {form!r}")
            foreign[language] = forms
        concepts.append(Concept(english=english, foreign=foreign))
    return tuple(concepts)


CONCEPTS: tuple[Concept, ...] = _parse(_TABLE)


@lru_cache(maxsize=1)
def _english_words() -> frozenset[str]:
    return common_words(ENGLISH_WORD_COUNT)


def _spellings(form: str, language: str) -> tuple[str, ...]:
    """``form`` as written and folded (lower case); a Vietnamese syllable on its own keeps
    its tone marks only."""
    written = form.lower()
    folded = fold_text(written).replace("\u0111", "d")
    if folded == written or (language == _VIETNAMESE and " " not in written):
        return (written,)
    return (written, folded)


def _is_english(spelling: str, concept: Concept) -> bool:
    """A one-word spelling that is a common English word the concept does not itself list
    (a hyphenated word is one word). An accented spelling is never one: the stored vector
    keeps accents, so "mẹ" matches "mẹ" only, and "me" is the folded spelling's problem."""
    own = {fold_text(word) for word in concept.english}
    if fold_text(spelling) in own:
        return False
    parts = spelling.replace("-", " ").split()
    if len(parts) != 1:
        return False
    common = _english_words()
    return any(word in common or word in own for word in _english_relatives(parts[0]))


def _english_relatives(word: str) -> set[str]:
    """``word`` and the English words the stored vector's English stemmer would reduce to
    the same stem ("filme" / "film", "familie" / "family", "visiter" / "visit", "excite" /
    "excited", "partie" / "party"): a spelling that stems like an English word finds it."""
    relatives = {word, word + "s", word + "ed", word + "ing"}
    if word.endswith("e"):
        relatives |= {word[:-1], word + "d"}
    if word.endswith("ie"):
        relatives.add(word[:-2] + "y")
    if word.endswith("er") and len(word) >= 7:
        relatives.add(word[:-2])
    return relatives


@cache
def concept_forms(index: int) -> tuple[str, ...]:
    """The searchable spellings of concept ``index``'s foreign forms, false friends left out,
    in lexicon order, each once."""
    concept = CONCEPTS[index]
    forms: list[str] = []
    english = {word.lower() for word in concept.english}
    for language in LANGUAGES:
        for form in concept.foreign[language]:
            for spelling in _spellings(form, language):
                if spelling in english or spelling in forms:
                    continue
                if _is_english(spelling, concept):
                    continue
                forms.append(spelling)
    return tuple(forms)


@lru_cache(maxsize=1)
def _index() -> dict[tuple[str, ...], tuple[int, ...]]:
    """Folded English form, as a tuple of words -> the concepts that list it."""
    table: dict[tuple[str, ...], list[int]] = {}
    for number, concept in enumerate(CONCEPTS):
        for form in concept.english:
            key = tuple(fold_text(form).replace("-", " ").split())
            entries = table.setdefault(key, [])
            if number not in entries:
                entries.append(number)
            if "-" in form:
                joined = (fold_text(form).replace("-", ""),)
                table.setdefault(joined, [])
                if number not in table[joined]:
                    table[joined].append(number)
    return {key: tuple(value) for key, value in table.items()}


def _singular(word: str) -> tuple[str, ...]:
    if len(word) > 4 and word.endswith("ies"):
        return (word[:-3] + "y",)
    if len(word) > 3 and word.endswith("es"):
        return (word[:-2], word[:-1])
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return (word[:-1],)
    return ()


# A word this long that is no English word may be a letter doubled or left single
# ("recomend", "apointment", "dinnner"): the commonest misspelling of a long word.
TYPO_MIN_LENGTH = 7


def _doubling_variants(word: str) -> list[str]:
    """``word`` with one of its letters doubled, or one doubled letter written once."""
    variants: list[str] = []
    for position, letter in enumerate(word):
        if not letter.isalpha():
            continue
        if position + 1 < len(word) and word[position + 1] == letter:
            variants.append(word[:position] + word[position + 1 :])
        else:
            variants.append(word[: position + 1] + letter + word[position + 1 :])
    return variants


def _lookup(words: tuple[str, ...]) -> tuple[int, ...]:
    table = _index()
    found = table.get(words)
    if found is None and words:
        for singular in _singular(words[-1]):
            found = table.get((*words[:-1], singular))
            if found is not None:
                break
    if (
        found is None
        and len(words) == 1
        and len(words[0]) >= TYPO_MIN_LENGTH
        and words[0] not in _english_words()
    ):
        for variant in _doubling_variants(words[0]):
            found = table.get((variant,))
            if found is not None:
                break
    return found or ()


# "did Ana like the soup?", "does he enjoy it", "how did she like it": the verb of liking in a
# question (a stop word, so no keyword carries it). Not "look like", "feel like", "sound like",
# "something like", "would like to" (a wish, not a judgement).
_LIKING = re.compile(
    r"\b(?:did|does|do|didn't|doesn't|don't)\b(?:\s+\w+){1,3}?\s+(?:like|love|enjoy)\b"
    r"(?!\s+to\b)"
)
_NOT_LIKING = re.compile(
    r"\b(?:look|looks|looked|feel|feels|felt|sound|sounds|seem|seems)\s+like\b"
)


# What a question of liking looks for: the verbs of liking and the words of tasting good.
_LIKING_CONCEPTS = ("like", "delicious")


def asks_about_liking(question: str) -> bool:
    """Whether ``question`` asks if someone liked or enjoyed something."""
    folded = fold_text(question)
    return bool(_LIKING.search(folded)) and not _NOT_LIKING.search(folded)


@dataclass(frozen=True)
class Translation:
    """The foreign forms of one concept a question asks about, for one lexical term: the
    question words it stands for and its spellings."""

    words: tuple[str, ...]
    forms: tuple[str, ...]


def translations(keywords: Sequence[str], question: str = "") -> tuple[Translation, ...]:
    """The concepts ``keywords`` name (longest run of consecutive keywords first), and that
    of liking when ``question`` asks whether someone liked something; each with its searchable
    foreign forms, leaving out the forms the word's own shorthand search already covers
    (``retrieval.shorthand``)."""
    words = [tuple(fold_text(keyword).replace("-", " ").split()) for keyword in keywords]
    found: list[Translation] = []
    seen: set[int] = set()
    position = 0
    while position < len(words):
        matched = 0
        for size in (3, 2, 1):
            if position + size > len(words):
                continue
            run = tuple(word for part in words[position : position + size] for word in part)
            concepts = _lookup(run)
            if not concepts:
                continue
            matched = size
            covered = {
                form
                for keyword in keywords[position : position + size]
                for form in search_forms(keyword)
            }
            for number in concepts:
                if number in seen:
                    continue
                seen.add(number)
                forms = tuple(
                    form for form in concept_forms(number) if _query_text(form) not in covered
                )
                if forms:
                    found.append(
                        Translation(words=tuple(keywords[position : position + size]), forms=forms)
                    )
            break
        position += matched or 1
    if question and asks_about_liking(question):
        for word in _LIKING_CONCEPTS:
            number = _lookup((word,))[0]
            if number not in seen:
                seen.add(number)
                found.append(Translation(words=(word,), forms=concept_forms(number)))
    return tuple(found)


def _query_text(form: str) -> str:
    """One spelling as ``to_tsquery`` text: words joined by ``<->``."""
    return " <-> ".join(form.replace("'", " ").replace("-", " ").split())


def translation_query(translation: Translation) -> str:
    """A translation's spellings as one ``to_tsquery`` alternation."""
    return " | ".join(f"({_query_text(form)})" for form in translation.forms)


def word_translation_query(word: str) -> str:
    """The foreign spellings of one question word as one ``to_tsquery`` alternation ("" when
    the lexicon has none): what the answerability check adds to the word's own forms."""
    if " " in word.strip() or '"' in word:
        return ""
    found = translations([word])
    return " | ".join(translation_query(item) for item in found)
