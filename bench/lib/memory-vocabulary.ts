/** Words the synthetic memory set (memory-set.ts) is made of: plain English, overlapping as real lives do. */

export const FIRST_NAMES = (
  'Ann Bob Mia Leo Ava Noah Emma Liam Olivia Lucas Sophia Mason Isla Ethan Chloe Jacob Grace Henry Lily Jack Zoe Owen Ruby Samuel Nora ' +
  'Daniel Ella David Freya Joseph Alice Carter Hazel Wyatt Ivy Julian Aria Levi Luna Isaac Stella Gabriel Maya Anthony Clara Dylan Eva ' +
  'Thomas Iris Aaron Elena Ryan Sara Nathan Julia Adam Rosa Hugo Lena Felix Nina Oscar Vera Max Anya Theo Mira Paul Dora Kai Selma ' +
  'Omar Yara Ravi Priya Kenji Yuki Mateo Lucia Tariq Amira Jonas Greta Pavel Irina Sean Niamh Diego Carmen Femi Ada Lars Ingrid Marco Giulia'
).split(' ');

export const LAST_NAMES = (
  'Smith Jones Brown Taylor Wilson Evans Walker Wright Roberts Green Hall Wood Jackson Clarke Patel Khan Lewis James Hughes Turner Moore ' +
  'Novak Weber Rossi Silva Kowalski Nakamura Okafor Jensen Moreau Dubois Garcia Lopez Schmidt Fischer Meyer Ivanova Costa Murphy Kelly ' +
  'Byrne Nielsen Berg Larsen Haddad Mensah Tanaka Suzuki Sato Ito Kim'
).split(' ');

export const RELATIONS = [
  'sister',
  'brother',
  'mother',
  'father',
  'daughter',
  'son',
  'wife',
  'husband',
  'partner',
  'grandmother',
  'grandfather',
  'cousin',
  'aunt',
  'uncle',
  'niece',
  'nephew',
  'flatmate',
  'boss',
  'neighbour',
  'godmother',
];

export const ANIMALS = ['dog', 'cat', 'rabbit', 'parrot', 'hamster', 'tortoise', 'horse', 'goldfish', 'ferret', 'guinea pig'];
export const PET_NAMES = 'Biscuit Pepper Luna Mochi Rocky Ziggy Bella Oreo Nemo Pickles Waffles Shadow Clover Juniper Pixel'.split(' ');

export const SKILLS = [
  'the cello',
  'the piano',
  'the violin',
  'the guitar',
  'the drums',
  'the saxophone',
  'Spanish',
  'Japanese',
  'Italian',
  'Portuguese',
  'Mandarin',
  'pottery',
  'chess',
  'knitting',
  'salsa dancing',
  'sailing',
  'rock climbing',
  'watercolour painting',
  'photography',
  'calligraphy',
  'woodworking',
  'sourdough baking',
  'juggling',
  'surfing',
  'archery',
  'sign language',
  'embroidery',
  'beekeeping',
  'origami',
  'yoga',
];

export const JOBS = (
  'nurse teacher plumber architect accountant pharmacist electrician librarian firefighter journalist translator chef baker dentist ' +
  'veterinarian pilot carpenter designer gardener lawyer mechanic physiotherapist programmer photographer paramedic florist tailor ' +
  'surveyor optician midwife'
).split(' ');

export const COMPANIES = (
  'Northwind Brightwater Ironbridge Bluefield Maplewood Silverline Redstone Greenleaf Oakridge Starlight Clearview Riverside Highgate ' +
  'Goldcrest Westbrook Eastwood Stonegate Summit Harbourside Lakeshore Pinecrest Fairview Crownhill Seabright Kingsway Ashford ' +
  'Windmere Foxglove Hawthorn Larkspur Moonstone Sunridge Thornbury Willowdale Yarrow Zephyr Copperfield Driftwood Emberly Falconer'
).split(' ');

export const CITIES = (
  'Lisbon Porto Madrid Seville Barcelona Valencia Paris Lyon Marseille Bordeaux Brussels Antwerp Amsterdam Rotterdam Utrecht Berlin ' +
  'Hamburg Munich Cologne Dresden Vienna Salzburg Zurich Geneva Basel Prague Brno Krakow Warsaw Gdansk Budapest Bratislava Ljubljana ' +
  'Zagreb Split Dubrovnik Belgrade Sofia Bucharest Athens Thessaloniki Istanbul Copenhagen Aarhus Stockholm Gothenburg Oslo Bergen ' +
  'Helsinki Tallinn Riga Vilnius Dublin Galway Cork Edinburgh Glasgow Manchester Liverpool Bristol York Cardiff Belfast Reykjavik ' +
  'Rome Milan Naples Florence Venice Turin Bologna Palermo Marrakesh Tunis Cairo Tokyo Kyoto Osaka Seoul Busan'
).split(' ');

export const SIGHTS = ['old town', 'harbour', 'market', 'cathedral', 'museum', 'castle', 'beaches', 'food', 'parks', 'architecture'];
export const MONTHS = 'January February March April May June July August September October November December'.split(' ');

export const FOODS = (
  'pizza sushi ramen curry lasagne paella risotto tacos burritos falafel hummus dumplings pho kimchi goulash moussaka pierogi ' +
  'croissants pancakes waffles porridge omelettes burgers steak salmon mussels oysters prawns tofu tempeh lentils chickpeas ' +
  'mushrooms aubergine avocado olives blue cheese feta halloumi mango pineapple strawberries cherries figs dates chocolate ' +
  'liquorice marzipan cheesecake tiramisu baklava churros gelato popcorn pretzels bagels sourdough brioche gnocchi couscous'
).split(' ');

export const FOOD_FEELINGS = ['loves', 'enjoys', 'cannot stand', 'is tired of', 'craves', 'dislikes'];
export const ALLERGENS = ['peanuts', 'walnuts', 'shellfish', 'gluten', 'lactose', 'eggs', 'soy', 'sesame', 'kiwi', 'celery', 'mustard', 'penicillin'];

export const TITLE_ADJECTIVES = (
  'Silent Hidden Broken Golden Last Lost Crimson Quiet Distant Burning Frozen Secret Wandering Hollow Bright Ancient Forgotten ' +
  'Restless Painted Sleeping Northern Glass Iron Paper Velvet Salt Midnight Summer Winter Wild'
).split(' ');
export const TITLE_NOUNS = (
  'River Garden Kingdom Orchard Lighthouse Harbour Forest Mirror Letter Island Station Library Compass Lantern Bridge Tide Mountain ' +
  'Cathedral Meadow Archive Clockmaker Cartographer Violin Observatory Vineyard Ferry Alphabet Chorus Atlas Bakery'
).split(' ');

export const EVENTS = [
  'dentist appointment',
  'job interview',
  'driving test',
  'maths exam',
  'chemistry exam',
  'history exam',
  'piano recital',
  'half marathon',
  'wedding rehearsal',
  'hospital check-up',
  'parent-teacher meeting',
  'flat viewing',
  'performance review',
  'court hearing',
  'visa appointment',
  'eye test',
  'charity bake sale',
  'book club evening',
  'football final',
  'first day at the new job',
  'surprise party',
  'graduation ceremony',
  'house move',
  'physiotherapy session',
  'citizenship test',
];
export const WEEKDAYS = 'Monday Tuesday Wednesday Thursday Friday Saturday Sunday'.split(' ');

export const FRIEND_NEWS = [
  'just moved to a farmhouse',
  'had a baby girl',
  'started a bakery',
  'runs marathons every spring',
  'broke a leg skiing',
  'got engaged last month',
  'adopted two kittens',
  'is retraining as a nurse',
  'plays bass in a jazz band',
  'won a poetry prize',
  'is hiking the Camino',
  'lost their job recently',
  'opened a bike repair shop',
  'is writing a fantasy novel',
  'moved back in with their parents',
  'builds furniture from driftwood',
  'volunteers at the animal shelter',
  'is recovering from surgery',
  'bought a narrowboat',
  'teaches tango on Thursdays',
];

export const SPORTS = [
  'football',
  'tennis',
  'badminton',
  'volleyball',
  'basketball',
  'hockey',
  'cricket',
  'rugby',
  'netball',
  'handball',
  'squash',
  'table tennis',
];
export const CLUBS = 'Rovers Harriers Wanderers Falcons Otters Comets Pilgrims Foxes Herons Mariners'.split(' ');

export const TOPICS = (
  'gardening astronomy elections recycling podcasts vaccines volcanoes dinosaurs jazz opera tattoos insomnia meditation budgeting ' +
  'mortgages holidays birthdays weddings funerals loneliness friendship ambition retirement parenting homework exams robots ' +
  'electric cars trains poetry philosophy religion football cricket chess cooking fasting running cycling swimming hiking ' +
  'camping fishing painting sculpture architecture fashion perfume coffee wine whisky'
).split(' ');
export const MOODS = ['cheerful', 'tired', 'anxious', 'hopeful', 'frustrated', 'relaxed', 'excited', 'sad', 'curious', 'proud'];

export const HABITS = [
  'prefers tea over coffee',
  'wakes up at six every morning',
  'walks to work',
  'does not drink alcohol',
  'is a vegetarian',
  'sleeps badly in summer',
  'collects vinyl records',
  'keeps a bullet journal',
  'hates talking on the phone',
  'is left-handed',
  'wears glasses for reading',
  'takes cold showers',
  'is afraid of heights',
  'grows tomatoes on the balcony',
  'listens to audiobooks while cooking',
  'volunteers at the food bank',
  'uses a standing desk',
  'drives an old Volvo',
  'goes to the cinema alone',
  'bakes bread on Sundays',
  'is colour-blind',
  'speaks three languages',
  'never eats breakfast',
  'plays video games at night',
  'cycles everywhere',
  'has a fear of spiders',
  'meditates before bed',
  'is saving for a house',
  'supports a local football team',
  'writes letters by hand',
  'dislikes crowded places',
  'goes swimming twice a week',
  'has a tattoo of a swallow',
  'is training for a triathlon',
  'watches the news every evening',
  'keeps houseplants everywhere',
  'reads science fiction',
  'loves thunderstorms',
  'sings in a choir',
  'knits scarves for friends',
];
