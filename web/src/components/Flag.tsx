import { ASSET_DISPLAY, type Asset } from '@afrofx/shared';
import canada from 'flag-icons/flags/4x3/ca.svg';
import europeanUnion from 'flag-icons/flags/4x3/eu.svg';
import unitedKingdom from 'flag-icons/flags/4x3/gb.svg';
import unitedStates from 'flag-icons/flags/4x3/us.svg';
import { cn } from '../lib/cn';

// SPEC §3's flags as SVG files built into the site (flag-icons, MIT): an emoji flag needs a colour-emoji font, which
// Windows and many Linux desktops lack, and shows there as two letters in boxes.
const FLAGS: Record<Asset, string> = {
  dollar: unitedStates,
  euro: europeanUnion,
  british_pounds: unitedKingdom,
  canadian_dollar: canada,
};

interface FlagProps {
  asset: Asset;
  className?: string;
  /** Beside words that already name the country or currency: hidden from screen readers. */
  decorative?: boolean;
}

/** An asset's flag, 4:3, named for screen readers ("United States flag") unless it is decorative. */
export function Flag({ asset, className, decorative = false }: FlagProps) {
  return (
    <img
      src={FLAGS[asset]}
      alt={decorative ? '' : `${ASSET_DISPLAY[asset].country} flag`}
      width={24}
      height={18}
      className={cn(
        'inline-block h-[18px] w-6 shrink-0 rounded-[3px] object-cover ring-1 ring-slate-900/10',
        className,
      )}
    />
  );
}
