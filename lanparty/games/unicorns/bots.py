"""placeholder"""

from lanparty.games.bots import RandomBot as HeuristicBot

__all__ = ["HeuristicBot"]
