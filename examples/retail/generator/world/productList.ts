import type { ProductCategory } from './types.js';

/** [category, kind (what people search for), name, brand, price, weight kg] of every product the store sells. */
export const PRODUCT_LIST: readonly (readonly [ProductCategory, string, string, string, number, number])[] = [
  ['audio', 'headphones', 'Sonora Q7 Wireless Headphones', 'Sonora', 249.0, 0.3],
  ['audio', 'headphones', 'Aurel Studio Wired Headphones', 'Aurel', 89.99, 0.35],
  ['audio', 'headphones', 'Pulse Lite Wireless Headphones', 'Pulse', 59.99, 0.25],
  ['audio', 'earbuds', 'Sonora Buds Pro Wireless Earbuds', 'Sonora', 179.0, 0.1],
  ['audio', 'earbuds', 'Pulse Run Sport Earbuds', 'Pulse', 39.99, 0.08],
  ['audio', 'speaker', 'Aurel Boom 2 Portable Speaker', 'Aurel', 129.0, 0.7],
  ['audio', 'speaker', 'Sonora Home Smart Speaker', 'Sonora', 199.0, 1.4],
  ['audio', 'speaker', 'Pulse Mini Waterproof Speaker', 'Pulse', 34.5, 0.4],
  ['audio', 'soundbar', 'Aurel Cinema Soundbar', 'Aurel', 329.0, 3.2],
  ['electronics', 'monitor', 'Lumio 27-inch 4K Monitor', 'Lumio', 379.99, 6.1],
  ['electronics', 'monitor', 'Lumio 24-inch Office Monitor', 'Lumio', 169.0, 4.2],
  ['electronics', 'webcam', 'Pixelplay HD Webcam', 'Pixelplay', 64.99, 0.2],
  ['electronics', 'charger', 'Voltix 65W USB-C Charger', 'Voltix', 45.0, 0.18],
  ['electronics', 'charger', 'Voltix 3-in-1 Wireless Charger', 'Voltix', 79.0, 0.5],
  ['electronics', 'smartwatch', 'Pixelplay Fit Smartwatch', 'Pixelplay', 199.0, 0.12],
  ['electronics', 'laptop stand', 'Lumio Aluminium Laptop Stand', 'Lumio', 49.5, 1.1],
  ['electronics', 'keyboard', 'Voltix Mechanical Keyboard', 'Voltix', 119.0, 0.9],
  ['electronics', 'trackpad', 'Voltix Precision Trackpad', 'Voltix', 89.99, 0.2],
  ['kitchen', 'blender', 'Kitcha Pro 1200 Blender', 'Kitcha', 149.0, 4.5],
  ['kitchen', 'blender', 'Kitcha Personal Blender', 'Kitcha', 59.0, 1.6],
  ['kitchen', 'espresso machine', 'Brewlux Barista Espresso Machine', 'Brewlux', 549.0, 9.8],
  ['kitchen', 'espresso machine', 'Brewlux Compact Espresso Machine', 'Brewlux', 279.0, 5.2],
  ['kitchen', 'kettle', 'Brewlux Gooseneck Electric Kettle', 'Brewlux', 89.0, 1.2],
  ['kitchen', 'air fryer', 'Kitcha Crisp 5L Air Fryer', 'Kitcha', 119.99, 5.0],
  ['kitchen', 'knife set', 'Hearth & Co 8-Piece Knife Set', 'Hearth & Co', 189.0, 3.1],
  ['kitchen', 'cookware set', 'Hearth & Co Ceramic Cookware Set', 'Hearth & Co', 239.0, 7.4],
  ['kitchen', 'coffee grinder', 'Brewlux Burr Coffee Grinder', 'Brewlux', 129.0, 2.3],
  ['home', 'desk lamp', 'Lumio Arc LED Desk Lamp', 'Lumio', 69.0, 1.3],
  ['home', 'air purifier', 'Nimbus HEPA Air Purifier', 'Nimbus', 229.0, 6.8],
  ['home', 'vacuum', 'Nimbus Cordless Stick Vacuum', 'Nimbus', 299.0, 2.7],
  ['home', 'vacuum', 'Nimbus Robot Vacuum', 'Nimbus', 449.0, 3.9],
  ['home', 'throw blanket', 'Hearth & Co Wool Throw Blanket', 'Hearth & Co', 79.0, 1.5],
  ['home', 'humidifier', 'Nimbus Ultrasonic Humidifier', 'Nimbus', 59.99, 1.8],
  ['home', 'bedding set', 'Hearth & Co Linen Bedding Set', 'Hearth & Co', 159.0, 2.9],
  ['home', 'wall clock', 'Hearth & Co Oak Wall Clock', 'Hearth & Co', 49.0, 1.0],
  ['outdoor', 'tent', 'Trailforge 2-Person Backpacking Tent', 'Trailforge', 289.0, 2.1],
  ['outdoor', 'tent', 'Trailforge 6-Person Family Tent', 'Trailforge', 419.0, 9.5],
  ['outdoor', 'headlamp', 'Northpeak 400-Lumen Headlamp', 'Northpeak', 39.0, 0.09],
  ['outdoor', 'lantern', 'Northpeak Rechargeable Camping Lantern', 'Northpeak', 54.99, 0.6],
  ['outdoor', 'sleeping bag', 'Trailforge Down Sleeping Bag', 'Trailforge', 239.0, 1.2],
  ['outdoor', 'backpack', 'Northpeak 45L Hiking Backpack', 'Northpeak', 169.0, 1.6],
  ['outdoor', 'water bottle', 'Northpeak Insulated Water Bottle', 'Northpeak', 32.0, 0.4],
  ['outdoor', 'camping stove', 'Trailforge Compact Camping Stove', 'Trailforge', 74.5, 0.5],
  ['apparel', 'running shoes', 'Veloce Glide Running Shoes', 'Veloce', 129.0, 0.7],
  ['apparel', 'running shoes', 'Veloce Trail Running Shoes', 'Veloce', 149.0, 0.8],
  ['apparel', 'running shoes', 'Stride Basic Running Shoes', 'Stride', 64.99, 0.7],
  ['apparel', 'rain jacket', 'Northpeak Packable Rain Jacket', 'Northpeak', 119.0, 0.4],
  ['apparel', 'hoodie', 'Stride Fleece Hoodie', 'Stride', 54.0, 0.6],
  ['apparel', 'socks', 'Veloce Merino Running Socks', 'Veloce', 18.0, 0.1],
  ['apparel', 'leggings', 'Stride Training Leggings', 'Stride', 44.0, 0.3],
  ['apparel', 'cap', 'Veloce Lightweight Running Cap', 'Veloce', 24.0, 0.1],
  ['toys', 'building set', 'Brickwise Space Station Building Set', 'Brickwise', 89.99, 1.9],
  ['toys', 'building set', 'Brickwise Castle Building Set', 'Brickwise', 59.99, 1.4],
  ['toys', 'puzzle', 'Brickwise 1000-Piece World Map Puzzle', 'Brickwise', 21.99, 0.8],
  ['toys', 'rc car', 'Zoomtek Off-Road RC Car', 'Zoomtek', 79.0, 1.3],
  ['toys', 'drone', 'Zoomtek Mini Camera Drone', 'Zoomtek', 129.0, 0.4],
  ['toys', 'board game', 'Brickwise Harbour Board Game', 'Brickwise', 39.0, 1.1],
  ['beauty', 'hair dryer', 'Glowe Ionic Hair Dryer', 'Glowe', 99.0, 0.8],
  ['beauty', 'electric toothbrush', 'Glowe Sonic Electric Toothbrush', 'Glowe', 69.0, 0.3],
  ['beauty', 'skincare set', 'Glowe Daily Skincare Set', 'Glowe', 48.0, 0.6],
  ['beauty', 'hair straightener', 'Glowe Ceramic Hair Straightener', 'Glowe', 79.0, 0.7],
  ['beauty', 'shaver', 'Glowe Precision Electric Shaver', 'Glowe', 89.0, 0.5],
];

export const FIRST_NAMES = [
  'Maria', 'James', 'Aisha', 'Lukas', 'Chen', 'Priya', 'Tom', 'Sofia', 'Kenji', 'Amara', 'Oliver', 'Fatima', 'Noah',
  'Elena', 'Diego', 'Hannah', 'Ravi', 'Grace', 'Mateo', 'Ingrid', 'Samuel', 'Yuki', 'Leila', 'Marcus', 'Nora',
  'Ahmed', 'Clara', 'Jonas', 'Zoe', 'Victor',
] as const;

export const LAST_NAMES = [
  'Lopez', 'Carter', 'Okafor', 'Becker', 'Wei', 'Sharma', 'Nguyen', 'Rossi', 'Tanaka', 'Mensah', 'Schmidt', 'Haddad',
  'Brooks', 'Petrova', 'Alvarez', 'Kowalski', 'Iyer', 'Walsh', 'Fernandez', 'Larsen', 'Adeyemi', 'Sato', 'Moreau',
  'Reid', 'Jensen', 'Farouk', 'Dubois', 'Novak', 'Murphy', 'Costa',
] as const;

/** [city, country (ISO 3166-1 alpha-2), postal code] */
export const PLACES: readonly (readonly [string, string, string])[] = [
  ['Seattle', 'US', '98101'], ['Austin', 'US', '78701'], ['Chicago', 'US', '60601'], ['Denver', 'US', '80202'],
  ['Boston', 'US', '02108'], ['Atlanta', 'US', '30303'], ['Portland', 'US', '97205'], ['New York', 'US', '10001'],
  ['Toronto', 'CA', 'M5H 2N2'], ['Vancouver', 'CA', 'V6B 1A1'], ['Berlin', 'DE', '10115'], ['Munich', 'DE', '80331'],
  ['Paris', 'FR', '75001'], ['Madrid', 'ES', '28013'], ['Amsterdam', 'NL', '1012 JS'], ['London', 'GB', 'SW1A 1AA'],
  ['Dublin', 'IE', 'D02 X285'], ['Milan', 'IT', '20121'], ['Sydney', 'AU', '2000'], ['Tokyo', 'JP', '100-0005'],
];

export const COUNTRY_NAMES: Readonly<Record<string, string>> = {
  US: 'the United States', CA: 'Canada', DE: 'Germany', FR: 'France', ES: 'Spain', NL: 'the Netherlands',
  GB: 'the United Kingdom', IE: 'Ireland', IT: 'Italy', AU: 'Australia', JP: 'Japan', MX: 'Mexico',
};
