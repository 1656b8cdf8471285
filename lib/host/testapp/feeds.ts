import { app, output, type InvocationContext } from '@azure/functions';
import { CONTAINERS } from './names.js';

const ledgerOut = output.cosmosDB({ connection: 'COSMOS', databaseName: 'evalp', containerName: CONTAINERS.ledger });

/** Change feed of `shipments`: one ledger entry per shipment document (idempotent by id). */
app.cosmosDB('shipmentsFeed', {
  connection: 'COSMOS',
  databaseName: 'evalp',
  containerName: CONTAINERS.shipments,
  leaseContainerName: 'leases',
  leaseContainerPrefix: 'testapp-',
  startFromBeginning: true,
  maxItemsPerInvocation: 100,
  extraOutputs: [ledgerOut],
  handler: (documents: unknown[], context: InvocationContext) => {
    const docs = documents as Array<{ id: string; qty: number }>;
    context.extraOutputs.set(
      ledgerOut,
      docs.map((doc) => ({ id: `ledger-${doc.id}`, shipmentId: doc.id, qty: doc.qty })),
    );
  },
});
