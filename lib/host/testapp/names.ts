/** Queue and container names the sample app uses (the host tests assert against them). */
export const QUEUES = { orders: 'orders', shipments: 'shipments', poison: 'poison' } as const;
export const CONTAINERS = { items: 'items', shipments: 'shipments', ledger: 'ledger', ticks: 'ticks' } as const;
export const ORCHESTRATION = { fanOut: 'fanOut', square: 'square', approvalEvent: 'approve' } as const;
