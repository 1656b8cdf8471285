import { app, output, type InvocationContext } from '@azure/functions';
import { CONTAINERS, QUEUES } from './names.js';

interface Order {
  orderId: string;
  qty: number;
}

const ordersOut = output.serviceBusQueue({ connection: 'SERVICEBUS', queueName: QUEUES.orders });
const shipmentsOut = output.serviceBusQueue({ connection: 'SERVICEBUS', queueName: QUEUES.shipments });
const shipmentsDocs = output.cosmosDB({ connection: 'COSMOS', databaseName: 'evalp', containerName: CONTAINERS.shipments });

/** Accepts one order or an array of orders and sends each to the `orders` queue. */
app.http('submitOrders', {
  route: 'orders',
  methods: ['POST'],
  extraOutputs: [ordersOut],
  handler: async (request, context) => {
    const orders = (await request.json()) as Order | Order[];
    context.extraOutputs.set(ordersOut, orders);
    return { status: 202, jsonBody: { accepted: Array.isArray(orders) ? orders.length : 1 } };
  },
});

/** cardinality 'one': forwards each order to `shipments` with its delivery count. */
app.serviceBusQueue('processOrder', {
  connection: 'SERVICEBUS',
  queueName: QUEUES.orders,
  extraOutputs: [shipmentsOut],
  handler: (message: unknown, context: InvocationContext) => {
    const order = message as Order;
    context.extraOutputs.set(shipmentsOut, { ...order, deliveryCount: context.triggerMetadata?.deliveryCount });
  },
});

/** cardinality 'many': writes the batch to the `shipments` container through the return binding. */
app.serviceBusQueue('shipBatch', {
  connection: 'SERVICEBUS',
  queueName: QUEUES.shipments,
  cardinality: 'many',
  return: shipmentsDocs,
  handler: (messages: unknown, context: InvocationContext) => {
    const batch = messages as Order[];
    const messageIds = (context.triggerMetadata?.messageIdArray ?? []) as string[];
    return batch.map((order, i) => ({ id: order.orderId, qty: order.qty, batchSize: batch.length, messageId: messageIds[i] }));
  },
});

/** Always fails: its messages end in the dead-letter sub-queue after maxDeliveryCount deliveries. */
app.serviceBusQueue('poisonWorker', {
  connection: 'SERVICEBUS',
  queueName: QUEUES.poison,
  handler: () => {
    throw new Error('poison message');
  },
});
