import { MODULES } from '../modules';

/** Every entity, from the modules' composition root: no folder scanning, so build and test see the same set. */
export const ENTITIES = MODULES.flatMap((m) => m.entities);
