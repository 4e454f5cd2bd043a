import { describe, expect, it } from 'vitest';
import { aboutLabel, formatAboutValue } from '../../../src/webui/admin/about-format.ts';
import { formatBytes, formatDuration } from '../../../src/webui/admin/units.ts';

describe('the About page in words and units', () => {
  it('shows sizes in binary units', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.50 KiB');
    expect(formatBytes(150 * 1024 * 1024)).toBe('150.0 MiB');
    expect(formatAboutValue('total_memory_bytes', 25_276_026_880)).toBe('23.5 GiB');
  });

  it('shows durations in days, hours and minutes', () => {
    expect(formatDuration(42)).toBe('42 s');
    expect(formatDuration(125)).toBe('2 min');
    expect(formatAboutValue('uptime_s', 3 * 3600 + 25 * 60 + 9)).toBe('3 h 25 min');
    expect(formatDuration(2 * 86_400 + 5 * 3600)).toBe('2 d 5 h');
  });

  it('names every field in words, including one it has no label for', () => {
    expect(aboutLabel('total_memory_bytes')).toBe('Total memory');
    expect(aboutLabel('uptime_s')).toBe('Uptime');
    expect(aboutLabel('swap_used_bytes')).toBe('Swap used');
    expect(formatAboutValue('swap_used_bytes', 2048)).toBe('2.00 KiB');
    expect(aboutLabel('last_backup_at')).toBe('Last backup');
  });

  it('shows a listener without a port as off, load averages rounded and known names spelled out', () => {
    expect(formatAboutValue('https', null)).toBe('off');
    expect(formatAboutValue('load_average', [0.5234, 1, 2.125])).toBe('0.52, 1, 2.13');
    expect(formatAboutValue('dialect', 'sqlite')).toBe('SQLite');
    expect(formatAboutValue('pid', 12345)).toBe('12345');
  });
});
