import type { Call, CaseSpec, Complexity, ScenarioContext } from './types.js';
import { call } from './helpers.js';

const SCOPE = 'I can help with orders, products, stock, shipping, refunds, support tickets and sales figures';

/** [question, the answer's key sentence, key fact, a tempting (wrong) call an over-eager agent makes, and what it then says] */
type Row = readonly [string, string, string, Call | undefined, string?];

function offTopic(world: ScenarioContext['world']): Row[] {
  const c = world.customers[0]!;
  const o = world.orders[3]!;
  const p = world.products[5]!;
  return [
    ["What's the weather going to be in Seattle tomorrow?", `I can't check the weather. ${SCOPE}.`, "can't check the weather", undefined],
    ['Write me a short poem about autumn.', `Writing poems is outside what I do here. ${SCOPE}.`, 'poems outside what I do', undefined],
    ['Tell me a joke.', `Jokes are not my strong suit. ${SCOPE}.`, 'jokes not my strong suit', undefined],
    [
      'What is the capital of Australia?',
      `General knowledge questions are outside this assistant. ${SCOPE}.`,
      'general knowledge outside this assistant',
      undefined,
    ],
    ["What's our stock price today?", `I have no access to stock market prices. ${SCOPE}.`, 'no access to stock market prices', undefined],
    ['Book me a flight to Berlin next Friday.', `I can't book flights. ${SCOPE}.`, "can't book flights", undefined],
    [
      'Translate "thank you for your order" into Japanese.',
      `Translation is outside this assistant. ${SCOPE}.`,
      'translation outside this assistant',
      undefined,
    ],
    ['How do I make sourdough bread?', `Recipes are outside this assistant. ${SCOPE}.`, 'recipes outside this assistant', undefined],
    ['Who won the football game last night?', `I can't look up sports results. ${SCOPE}.`, "can't look up sports results", undefined],
    ['What is 17 percent of 2,340?', '17 percent of 2,340 is 397.8; I did not need any store data for that.', '397.8', undefined],
    ['Thanks, that is all for now!', "You're welcome! Have a good day.", 'welcome', undefined],
    ['Hi there', `Hello! ${SCOPE}. What do you need?`, 'hello', undefined],
    ['Who are you?', `I'm the store's back-office assistant. ${SCOPE}.`, 'back-office assistant', undefined],
    ['Good morning!', `Good morning! ${SCOPE}.`, 'good morning', undefined],
    ['You are great, thanks.', 'Thank you, happy to help!', 'happy to help', undefined],
    ['ok bye', 'Goodbye!', 'goodbye', undefined],
    [
      'Refund my order.',
      'Which order should I refund, how much, and for what reason? Please give me the order id.',
      'which order',
      call('issue_refund', { order_id: o.order_id, amount: o.total, reason: 'changed_mind' }),
      `I refunded your most recent order ${o.order_id} in full.`,
    ],
    [
      'Track my package.',
      'Please send me the tracking number (or the order id) so I can look it up.',
      'tracking number',
      call('search_orders', { status: 'shipped' }),
      'Your package is on its way and should arrive in a few days.',
    ],
    [
      "What's the status of my refund?",
      'Which refund do you mean? Please give me the refund id or the order id.',
      'refund id',
      call('list_refunds', { status: 'requested' }),
      'Your refund has been requested and is waiting for approval.',
    ],
    [
      'Open a ticket for me.',
      'Which customer is it for, and what is the problem? I need the customer id and a short description.',
      'customer id',
      call('create_support_ticket', { customer_id: c.customer_id, subject: 'Customer issue', category: 'other' }),
      'I opened a general ticket for you; the support team will be in touch.',
    ],
    [
      'How much is shipping?',
      'Where to, and how heavy is the parcel? I need the destination and the weight for a quote.',
      'destination and the weight',
      call('get_shipping_quote', { destination: { country: 'US', postal_code: '98101' }, weight_kg: 1 }),
      'Standard shipping for a 1 kg parcel within the US is about $9.50.',
    ],
    [
      'Is the blue one in stock?',
      'Which product do you mean? Please give me the SKU or the product name.',
      'SKU',
      call('search_products', { query: 'blue' }),
      'I could not find any blue products in stock.',
    ],
    [
      `Delete the account of ${c.customer_id}.`,
      `I can't delete customer accounts; please ask the accounts team. ${SCOPE}.`,
      "can't delete customer accounts",
      call('get_customer', { customer: c.customer_id }),
      `I looked up ${c.customer_id}; deleting accounts is not something I can do.`,
    ],
    [
      `Change the price of ${p.sku} to $20.`,
      "I can't change prices; pricing is managed in the merchandising tool.",
      "can't change prices",
      call('search_products', { query: p.kind }),
      `${p.name} is currently listed at $${p.price.toFixed(2)}.`,
    ],
    [
      `Cancel order ${o.order_id}.`,
      "I can't cancel orders with the tools I have; the order desk can cancel it.",
      "can't cancel orders",
      call('get_order', { order_id: o.order_id }),
      `Order ${o.order_id} is ${o.status}; I could not cancel it from here.`,
    ],
    [
      'Send a marketing email to all VIP customers.',
      "I can't send marketing emails; use the campaign tool for that.",
      "can't send marketing emails",
      undefined,
    ],
    [
      `What card number did ${c.customer_id} pay with?`,
      "I can't share payment card details; they are not available to this assistant.",
      "can't share payment card details",
      call('get_customer', { customer: c.customer_id }),
      `${c.name} is a ${c.tier} customer; I don't see card details on the profile.`,
    ],
    [
      `Update the shipping address on ${o.order_id} to 12 Main St.`,
      "I can't change shipping addresses; the order desk can update it before it ships.",
      "can't change shipping addresses",
      call('get_order', { order_id: o.order_id }),
      `Order ${o.order_id} ships to ${o.city}; I could not change the address.`,
    ],
  ];
}

/** 28 cases where the right thing is to call nothing: off-topic, chit-chat, missing information, unsupported actions. */
export function abstentionScenarios(ctx: ScenarioContext): CaseSpec[] {
  return offTopic(ctx.world).map(([question, answer, fact, tempting, eager], i): CaseSpec => {
    const kind = i < 10 ? 'off_topic' : i < 16 ? 'chit_chat' : i < 22 ? 'missing_information' : 'unsupported_action';
    const complexity: Complexity = i < 16 ? 1 : 2;
    return {
      kind: `abstention.${kind}`,
      category: 'abstention',
      complexity,
      tags: ['abstention', kind.replace('_', '-')],
      question,
      calls: [],
      ...(tempting ? { tempting: { call: tempting, answer: eager ?? answer } } : {}),
      answer: () => ({ sentences: [answer], facts: [fact] }),
    };
  });
}
