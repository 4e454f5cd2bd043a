import { z } from 'zod';
import { type ClockPort, withTimeout } from '../../src/components/contract.ts';

/**
 * The provider protocol is Open-Meteo's forecast API (https://open-meteo.com/en/docs):
 * `GET <url>?latitude=&longitude=&current=<fields>&wind_speed_unit=kmh` answers
 * `{latitude, longitude, current: {time, temperature_2m, ...}}`. Any server answering that shape works.
 */
export const CURRENT_FIELDS = ['temperature_2m', 'apparent_temperature', 'relative_humidity_2m', 'weather_code', 'wind_speed_10m'] as const;

const ForecastSchema = z.object({
  latitude: z.number(),
  longitude: z.number(),
  current: z.object({
    time: z.string(),
    temperature_2m: z.number(),
    apparent_temperature: z.number().optional(),
    relative_humidity_2m: z.number().optional(),
    weather_code: z.number().int(),
    wind_speed_10m: z.number().optional(),
  }),
});

export const WeatherSchema = z.object({
  latitude: z.number(),
  longitude: z.number(),
  observed_at: z.string(),
  temperature_c: z.number(),
  apparent_temperature_c: z.number().nullable(),
  humidity_percent: z.number().nullable(),
  wind_speed_kmh: z.number().nullable(),
  weather_code: z.number().int(),
  description: z.string(),
});
export type Weather = z.infer<typeof WeatherSchema>;

/** WMO weather interpretation codes, as Open-Meteo documents them. */
const WMO: Record<number, string> = {
  0: 'clear sky',
  1: 'mainly clear',
  2: 'partly cloudy',
  3: 'overcast',
  45: 'fog',
  48: 'rime fog',
  51: 'light drizzle',
  53: 'drizzle',
  55: 'dense drizzle',
  56: 'freezing drizzle',
  57: 'dense freezing drizzle',
  61: 'light rain',
  63: 'rain',
  65: 'heavy rain',
  66: 'freezing rain',
  67: 'heavy freezing rain',
  71: 'light snow',
  73: 'snow',
  75: 'heavy snow',
  77: 'snow grains',
  80: 'light showers',
  81: 'showers',
  82: 'violent showers',
  85: 'snow showers',
  86: 'heavy snow showers',
  95: 'thunderstorm',
  96: 'thunderstorm with hail',
  99: 'thunderstorm with heavy hail',
};

export class WeatherUnavailableError extends Error {}

export async function fetchCurrentWeather(url: string, latitude: number, longitude: number, deadline: { clock: ClockPort; ms: number }): Promise<Weather> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    throw new WeatherUnavailableError(`WEATHER_PROVIDER_URL is not a URL: ${url}`);
  }
  target.searchParams.set('latitude', String(latitude));
  target.searchParams.set('longitude', String(longitude));
  target.searchParams.set('current', CURRENT_FIELDS.join(','));
  target.searchParams.set('wind_speed_unit', 'kmh');
  // The deadline covers the body too; its timer is released once the answer is read.
  return withTimeout(deadline.clock, deadline.ms, async (signal) => {
    let response: Response;
    try {
      response = await fetch(target, { signal, headers: { accept: 'application/json' } });
    } catch (error) {
      throw new WeatherUnavailableError(`the weather provider cannot be reached: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (!response.ok) throw new WeatherUnavailableError(`the weather provider answered HTTP ${response.status}`);
    const parsed = ForecastSchema.safeParse(await response.json().catch(() => undefined));
    if (!parsed.success) throw new WeatherUnavailableError('the weather provider answered an unexpected shape');
    const { current } = parsed.data;
    return {
      latitude: parsed.data.latitude,
      longitude: parsed.data.longitude,
      observed_at: current.time,
      temperature_c: current.temperature_2m,
      apparent_temperature_c: current.apparent_temperature ?? null,
      humidity_percent: current.relative_humidity_2m ?? null,
      wind_speed_kmh: current.wind_speed_10m ?? null,
      weather_code: current.weather_code,
      description: WMO[current.weather_code] ?? `weather code ${current.weather_code}`,
    };
  });
}
