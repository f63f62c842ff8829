// An A/B's two sides named by the release of the package each wraps, as the results record it,
// so a reader sees which versions were compared, not `STORE@installed`.
import { describe, expect, it } from 'vitest';
import { sideLabel } from '../../../../src/core/verdicts/ab.ts';

describe('ab - sides by their release', () => {
  it('the installed package, an npm release, a git build, and a store that records no version', () => {
    const installed = { package: 'idb-keyval', version: '6.3.0', source: 'installed' };
    expect(sideLabel('keyval@installed', installed)).toBe('idb-keyval 6.3.0 (installed)');
    const npm = {
      package: 'idb-keyval',
      version: '6.2.1',
      source: 'npm https://registry.npmjs.org/',
    };
    expect(sideLabel('keyval@6.2.1', npm)).toBe('idb-keyval 6.2.1 (npm)');
    const plain = { package: 'idb-keyval', version: '6.3.0', module: 'bench/keyval.ts' };
    expect(sideLabel('keyval', plain)).toBe('keyval (idb-keyval 6.3.0)');
    expect(sideLabel('memory', undefined)).toBe('memory');
    expect(sideLabel('mystore@git:HEAD', { ref: 'HEAD', commit: 'abc' })).toBe('mystore@git:HEAD');
  });
});
