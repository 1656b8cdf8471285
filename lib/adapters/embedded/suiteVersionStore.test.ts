import { afterEach } from 'vitest';
import { suiteVersionStoreContract } from '../../ports/contracts/suiteVersionStore.contract.js';
import { EmbeddedSuiteVersionStore } from './suiteVersionStore.js';
import { TempDatabases } from './tempDatabase.test-helpers.js';

const temps = new TempDatabases();
afterEach(() => temps.closeAll());

suiteVersionStoreContract('EmbeddedSuiteVersionStore', () => new EmbeddedSuiteVersionStore(temps.open().db));
