#!/usr/bin/env node
// The installed command. tsx's loader is registered in this process rather than by the tsx CLI,
// which runs a child and SIGKILLs it 30 ms after relaying Ctrl-C, before a sweep can stop its browsers.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/bin.ts');
