/**
 * STATION_WEBDJ_URL, or the address AzuraCast's proxy gives the web broadcaster: STATION_BASE_URL with
 * ws/wss and the path `/webdj/<STATION_ID>/` (contract "Radio").
 */
export function webdjUrl(explicit: string, baseUrl: string, stationId: string): string {
  if (explicit.trim() !== '') return explicit.trim();
  if (baseUrl.trim() === '' || stationId.trim() === '') return '';
  try {
    const url = new URL(baseUrl.trim());
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    url.pathname = `${url.pathname.replace(/\/+$/, '')}/webdj/${encodeURIComponent(stationId.trim())}/`;
    url.search = '';
    url.hash = '';
    return url.href;
  } catch {
    return '';
  }
}
