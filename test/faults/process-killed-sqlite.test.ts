import { describe, it } from 'vitest';
import { killMidWrite } from '../helpers/kill-mid-write.ts';

describe('the process killed mid-write [sqlite]', () => {
  it('keeps every acknowledged history row, stored message and configuration save', () => killMidWrite(undefined));
});
