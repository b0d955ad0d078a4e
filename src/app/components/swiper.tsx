import { useEffect, useRef, useState, type ReactNode } from 'react';
import { SWIPER_DURATION_MS, SWIPER_INTERVAL_MS } from '../../shared/constants';

// Banner swiper: a slide every 5000 ms, 500 ms transition (docs/product.md#limits); pauses on hover, on
// focus and while a finger is down. Where a touch started is kept in a ref, so a render mid-swipe keeps it.
export function Swiper({ slides, label }: { slides: { key: string | number; node: ReactNode }[]; label: string }) {
  const [index, setIndex] = useState(0);
  const [paused, setPaused] = useState(false);
  const [touching, setTouching] = useState(false);
  const startX = useRef(0);
  const count = slides.length;
  useEffect(() => {
    if (count < 2 || paused || touching) return;
    const id = setInterval(() => setIndex((i) => (i + 1) % count), SWIPER_INTERVAL_MS);
    return () => clearInterval(id);
  }, [count, paused, touching]);
  const active = count ? index % count : 0;
  return (
    <section
      className="swiper"
      aria-roledescription="carousel"
      aria-label={label}
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
      onTouchStart={(e) => {
        startX.current = e.touches[0]?.clientX ?? 0;
        setTouching(true);
      }}
      onTouchCancel={() => setTouching(false)}
      onTouchEnd={(e) => {
        setTouching(false);
        const dx = (e.changedTouches[0]?.clientX ?? 0) - startX.current;
        if (Math.abs(dx) > 40 && count > 1) setIndex((i) => (i + (dx < 0 ? 1 : count - 1)) % count);
      }}
    >
      <div className="swiper__track" style={{ transform: `translateX(-${active * 100}%)`, transitionDuration: `${SWIPER_DURATION_MS}ms` }}>
        {slides.map((s, i) => (
          <div className="swiper__slide" key={s.key} aria-hidden={i !== active} inert={i !== active}>
            {s.node}
          </div>
        ))}
      </div>
      {count > 1 && (
        <div className="swiper__dots">
          {slides.map((s, i) => (
            <button key={s.key} type="button" aria-label={`${i + 1} / ${count}`} aria-current={i === active} onClick={() => setIndex(i)} />
          ))}
        </div>
      )}
    </section>
  );
}
