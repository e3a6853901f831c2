// sensor_mean and sensor_convert: SensorAPI → Calculator over five readings.
import type { Family } from '../family';
import { formatNumber } from '../format';
import { sensorOutput } from '../outputs';
import type { Scene, SensorQuantity } from '../scene';

export const sensorMeanValue = (scene: Scene) => scene.sensor.tenths.reduce((a, t) => a + t, 0) / 10 / scene.sensor.tenths.length;

/** The conversion a sensor_convert request asks for, by measured quantity. */
export const SENSOR_CONVERSIONS: Record<SensorQuantity, { target: string; apply: (x: number) => number }> = {
  temperature: { target: '°F', apply: (x) => (x * 9) / 5 + 32 },
  pressure: { target: 'psi', apply: (x) => x * 0.145038 },
  'wind speed': { target: 'km/h', apply: (x) => x * 3.6 },
};

export const sensorMean: Family = {
  name: 'sensor_mean',
  chainText: 'SensorAPI → Calculator',
  computation: 'mean of five readings',
  chainTools: ['SensorAPI', 'Calculator'],
  instantiate(scene, rng) {
    const id = scene.sensor.id;
    const request = rng.pick([
      `What is the mean of the last five readings of sensor ${id}?`,
      `Sensor ${id} reported five readings. What is their average?`,
      `Give the average of the five most recent readings from sensor ${id}.`,
    ]);
    const goldValue = sensorMeanValue(scene);
    return {
      request,
      goldValue,
      chain: [
        { tool: 'SensorAPI', needs: [], produces: 'readings', output: sensorOutput(scene) },
        { tool: 'Calculator', needs: ['readings'], output: formatNumber(goldValue) },
      ],
    };
  },
};

export const sensorConvert: Family = {
  name: 'sensor_convert',
  chainText: 'SensorAPI → Calculator',
  computation: 'mean, then a unit conversion',
  chainTools: ['SensorAPI', 'Calculator'],
  instantiate(scene, rng) {
    const id = scene.sensor.id;
    const quantity = scene.sensor.quantity;
    const conversion = SENSOR_CONVERSIONS[quantity];
    const request = rng.pick([
      `Convert the mean of ${id} from its native unit to ${conversion.target}.`,
      `My dashboard uses ${conversion.target}: what is the mean of ${id} in that unit?`,
      `${id} reports in metric units; express its mean in ${conversion.target}.`,
    ]);
    const goldValue = conversion.apply(sensorMeanValue(scene));
    return {
      request,
      goldValue,
      chain: [
        { tool: 'SensorAPI', needs: [], produces: 'readings', output: sensorOutput(scene) },
        { tool: 'Calculator', needs: ['readings'], output: formatNumber(goldValue) },
      ],
    };
  },
};
