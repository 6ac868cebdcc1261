// A small picture of an image in a table row: loaded only when its row is on screen, and sized
// before it loads, so rows never move when it arrives.
import './Thumbnail.css';

/** The file types a browser shows as a picture (a TIFF scan it cannot: no thumbnail then). */
const PICTURE = /\.(png|jpe?g|webp|gif)$/i;

export function isPicture(name: string): boolean {
  return PICTURE.test(name);
}

export function Thumbnail({ src, alt, size = 28 }: { src: string; alt: string; size?: number }) {
  return <img className="thumb" src={src} alt={alt} width={size} height={size} loading="lazy" decoding="async" draggable={false} />;
}
