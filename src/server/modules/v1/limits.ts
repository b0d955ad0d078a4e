// The /v1 request budget of each key: V1_RATE_LIMIT requests per V1_RATE_WINDOW_SEC seconds.
export const V1_RATE_LIMIT = 100;
export const V1_RATE_WINDOW_SEC = 60;
