import { definePlugin } from '../../src/components/contract.ts';
import { fetchCurrentWeather, WeatherUnavailableError, type Weather } from './open-meteo.ts';

const PROVIDER_TIMEOUT_MS = 5000;

/** The persona's local weather: `GET /api/weather/current`, and a line in the system prompt. */
export default definePlugin({
  description: 'Current weather at WEATHER_LATITUDE/WEATHER_LONGITUDE from an Open-Meteo-compatible provider.',
  requiredConfig: ['WEATHER_LATITUDE', 'WEATHER_LONGITUDE'],
  needs: ['clock'],
  create: ({ config, logger, services: { clock } }) => {
    let last: { weather: Weather; at: number } | undefined;
    /** The reading under way: messages that arrive together share one request to the provider. */
    let pending: Promise<{ weather: Weather; at: number }> | undefined;

    const fetchReading = async (): Promise<{ weather: Weather; at: number }> => {
      const latitude = Number(config.get('WEATHER_LATITUDE'));
      const longitude = Number(config.get('WEATHER_LONGITUDE'));
      if (!Number.isFinite(latitude) || !Number.isFinite(longitude))
        throw new WeatherUnavailableError('WEATHER_LATITUDE and WEATHER_LONGITUDE must be numbers');
      const weather = await fetchCurrentWeather(config.get('WEATHER_PROVIDER_URL'), latitude, longitude, { clock, ms: PROVIDER_TIMEOUT_MS });
      last = { weather, at: clock.now() };
      return last;
    };
    const current = (): Promise<{ weather: Weather; at: number }> => {
      if (last && clock.now() - last.at < config.get('WEATHER_CACHE_S') * 1000) return Promise.resolve(last);
      pending ??= fetchReading().finally(() => (pending = undefined));
      return pending;
    };

    const unavailable = (reason: string) => ({
      body: { status: 'unavailable', reason, weather: last?.weather ?? null, last_fetch: last ? new Date(last.at).toISOString() : null },
    });

    return {
      routes: [
        {
          method: 'GET',
          path: '/api/weather/current',
          summary: 'Current weather: {status: ok, weather, last_fetch} or {status: unavailable, reason}',
          handle: async () => {
            try {
              const reading = await current();
              return { body: { status: 'ok', weather: reading.weather, last_fetch: new Date(reading.at).toISOString() } };
            } catch (error) {
              if (!(error instanceof WeatherUnavailableError)) throw error;
              logger.warn({ reason: error.message }, 'weather unavailable');
              return unavailable(error.message);
            }
          },
          unloaded: unavailable,
        },
      ],
      run: async () => (await current()).weather,
      promptContext: async () => {
        try {
          const { weather } = await current();
          return `The weather where you live: ${weather.description}, ${weather.temperature_c} °C.`;
        } catch {
          return undefined;
        }
      },
    };
  },
});
