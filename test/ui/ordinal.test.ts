import {expect, it} from 'vitest';
import {ordinal} from '../../source/ui/components/node-row.js';

it('ordinals for "retrying (3rd time)"', () => {
	expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111].map(n => ordinal(n))).toEqual(['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '23rd', '101st', '111th']);
});
