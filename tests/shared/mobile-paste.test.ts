// Numbers as people paste them into the mobile and PayNow fields (docs/product.md#validation).
import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { localMobile, mobileSchema } from '../../src/shared/schemas/auth';

describe('localMobile', () => {
  it.each([
    ['+65 9123 4567', '91234567'],
    ['+6591234567', '91234567'],
    ['(65) 9123-4567', '91234567'],
    ['65 9123 4567', '91234567'],
    ['9123 4567', '91234567'],
    ['9123-4567', '91234567'],
    ['91234567', '91234567'],
    ['9123', '9123'],
  ])('%s reads as %s', (pasted, local) => {
    expect(localMobile(pasted)).toBe(local);
    if (local.length === 8) expect(v.safeParse(mobileSchema, localMobile(pasted)).success).toBe(true);
  });

  it('leaves a UEN, letters and a foreign number for the rules to judge', () => {
    expect(localMobile('201912345K')).toBe('201912345K');
    expect(localMobile('abc')).toBe('abc');
    expect(localMobile('+60 12 345 6789')).toBe('60123456789');
    expect(v.safeParse(mobileSchema, localMobile('+60 12 345 6789')).success).toBe(false);
  });
});
